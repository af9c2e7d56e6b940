import Locking

/// A thread-safe append-only list for tests (what an observer, a logger or a tap saw).
///
/// ## Thread safety
/// `Sendable`: any task or thread may call any member; the state sits behind one `Locked`.
public final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])

    public init() {}

    public func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// Everything appended so far, in order.
    public var values: [Element] { elements.withLock { $0 } }
}
