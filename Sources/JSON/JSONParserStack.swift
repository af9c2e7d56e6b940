/// A last-in-first-out stack for the parser. It starts in memory the caller lends (a stack allocation, so small
/// documents allocate nothing for it) and moves to the heap, doubling, once it outgrows that. Elements still on it
/// when it is destroyed (after an error) are destroyed with it.
struct JSONParserStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private var ownsBase: Bool
    /// The number of elements on the stack.
    private(set) var count = 0

    /// A stack over `buffer`, which must stay valid (and is left uninitialized) for the stack's lifetime.
    init(lending buffer: UnsafeMutableBufferPointer<Element>) {
        if let start = buffer.baseAddress, buffer.count > 0 {
            base = start
            capacity = buffer.count
            ownsBase = false
        } else {
            base = .allocate(capacity: 16)
            capacity = 16
            ownsBase = true
        }
    }

    deinit {
        base.deinitialize(count: count)
        if ownsBase { base.deallocate() }
    }

    var isEmpty: Bool { count == 0 }

    /// The element at `index` (from the bottom). - Precondition: `index < count`.
    subscript(index: Int) -> Element {
        base[index]
    }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Removes and returns the top element. - Precondition: not empty.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func removeLast() -> Element {
        count -= 1
        return (base + count).move()
    }

    /// Moves the elements from position `start` to the top into a new array of exactly that size (no copies, no
    /// retain/release), leaving `start` elements. - Precondition: `start <= count`.
    ///
    /// Up to four elements go through an array literal, which the compiler allocates and fills in place; more are
    /// appended after `reserveCapacity`. (`Array(unsafeUninitializedCapacity:)` allocates through an unspecialized
    /// standard-library entry that looks the storage type up at run time, several times the cost of the copy.)
    mutating func removeArray(from start: Int) -> [Element] {
        let source = base + start
        let moved = count - start
        count = start
        switch moved {
        case 0: return []
        case 1: return [source.move()]
        case 2: return [source.move(), (source + 1).move()]
        case 3: return [source.move(), (source + 1).move(), (source + 2).move()]
        case 4: return [source.move(), (source + 1).move(), (source + 2).move(), (source + 3).move()]
        default:
            var array: [Element] = []
            array.reserveCapacity(moved)
            for offset in 0..<moved {
                array.append((source + offset).move())
            }
            return array
        }
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        if ownsBase { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBase = true
    }
}

extension JSONParserStack where Element: BitwiseCopyable {
    /// The top element. - Precondition: not empty.
    var last: Element { base[count - 1] }
}
