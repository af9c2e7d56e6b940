public import Statehouse

/// The demo reducers: `Counter`, `TodoList`, `Search` and `Ticker` (for benchmarks). The server's catalog of them is
/// `ReducerCatalog(registering: Demo.reducers)`.
public enum Demo {
    /// Every demo reducer type, in the order they are documented.
    public static var reducers: [any ServableReducer.Type] { [Counter.self, TodoList.self, Search.self, Ticker.self] }
}
