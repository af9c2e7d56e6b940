public import StatehouseServer

extension ReducerCatalog {
    /// A catalog holding the demo reducers: `Counter`, `TodoList`, `Search` and `Ticker` (for benchmarks).
    public static var demo: ReducerCatalog {
        var catalog = ReducerCatalog()
        catalog.register(Counter.self)
        catalog.register(TodoList.self)
        catalog.register(Search.self)
        catalog.register(Ticker.self)
        return catalog
    }
}
