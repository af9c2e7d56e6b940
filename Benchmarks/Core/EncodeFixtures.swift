import DemoReducers

/// States for the encode-cost table.
enum EncodeFixtures {
    /// A TodoList state of about 1 KiB encoded (16 items, texts of 30–31 characters, every third done).
    static let todoList: TodoList.State = {
        let items = (1...16).map { id in
            TodoList.Item(id: id, text: "Write the quarterly report no. \(id)", done: id % 3 == 0)
        }
        return TodoList.State(items: items, nextID: 17)
    }()
}
