public import Statehouse

/// A demo to-do list: `{"items":[{"id":Int,"text":String,"done":Bool}],"nextID":Int}`.
///
/// `items` is a ``Statehouse/ChunkedArray`` (the same JSON as an array): a change to one item of a big list
/// re-encodes that item's chunk, not the list (docs/architecture.md "Big states").
public struct TodoList: ServableReducer {
    public struct Item: Codable, Equatable, Sendable {
        public var id: Int
        public var text: String
        public var done: Bool
        public init(id: Int, text: String, done: Bool) {
            self.id = id
            self.text = text
            self.done = done
        }
    }

    public struct State: Codable, Equatable, Sendable {
        public var items: ChunkedArray<Item>
        public var nextID: Int
        public init(items: [Item] = [], nextID: Int = 1) {
            self.items = ChunkedArray(items)
            self.nextID = nextID
        }
    }

    public enum Action: Codable, Sendable, Equatable {
        case add(text: String)
        case toggle(id: Int)
        case remove(id: Int)
        case clearCompleted
    }

    public static let initialState = State()
    public static let actionTypes = ["add", "toggle", "remove", "clearCompleted"]

    public init() {}

    public func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .add(let text):
            state.items.append(Item(id: state.nextID, text: text, done: false))
            state.nextID = state.nextID == .max ? state.nextID : state.nextID + 1
        case .toggle(let id):
            if let index = state.items.firstIndex(where: { $0.id == id }) { state.items[index].done.toggle() }
        case .remove(let id):
            state.items.removeAll { $0.id == id }
        case .clearCompleted:
            state.items.removeAll { $0.done }
        }
        return .none
    }
}
