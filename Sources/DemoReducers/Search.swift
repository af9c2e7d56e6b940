public import Statehouse

/// A demo search box: a debounced query effect and out-of-band events.
///
/// State `{"query":String,"results":[String],"searches":Int}`. `query` (payload: the text) updates the query at
/// once and, 300 ms after the last keystroke (`debounce`), reduces `results`. Each completed search bumps
/// `searches`. A search with no result emits the event `noResults{query}`; `select` (payload: an item) emits
/// `selected` — events reach WebSocket subscribers and change no state.
public struct Search: ServableReducer {
    public struct State: Codable, Equatable, Sendable {
        public var query: String
        public var results: [String]
        public var searches: Int
        public init(query: String = "", results: [String] = [], searches: Int = 0) {
            self.query = query
            self.results = results
            self.searches = searches
        }
    }

    public enum Action: Codable, Sendable, Equatable {
        case query(String)
        case results(query: String, items: [String])
        case select(String)
    }

    public enum Event: Codable, Sendable, Equatable {
        case noResults(query: String)
        case selected(String)
    }

    private enum EffectID: Hashable, Sendable { case search }

    public static let initialState = State()
    public static let actionTypes = ["query", "results", "select"]
    /// How long typing must pause before a search runs.
    public static let debounceDelay = Duration.milliseconds(300)
    static let catalogue = [
        "apple", "apricot", "avocado", "banana", "blackberry", "blueberry", "cherry", "coconut", "date", "fig",
        "grape", "kiwi", "lemon", "lime", "mango", "melon", "orange", "papaya", "peach", "pear", "plum",
    ]

    public init() {}

    public func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .query(let text):
            state.query = text
            let needle = text.lowercased()
            return .single { .results(query: text, items: Self.catalogue.filter { $0.hasPrefix(needle) }) }
                .debounce(EffectID.search, for: Self.debounceDelay)
        case .results(let query, let items):
            guard query == state.query else { return .none }
            state.results = items
            state.searches += 1
            return items.isEmpty ? .emit(Event.noResults(query: query)) : .none
        case .select(let item):
            return .emit(Event.selected(item))
        }
    }
}
