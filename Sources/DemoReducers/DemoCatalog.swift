public import StatehouseServer

extension ReducerCatalog {
    /// A catalog holding the demo reducers: `Counter` and `TodoList`.
    public static var demo: ReducerCatalog {
        var catalog = ReducerCatalog()
        catalog.register(Counter.self)
        catalog.register(TodoList.self)
        return catalog
    }
}
