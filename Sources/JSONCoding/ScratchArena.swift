/// A growable array of a trivial type (no references) in manually managed memory, used as a stack by the encoder:
/// element access is an address computation, without bounds checks beyond debug assertions, uniqueness checks or
/// retain/release. Like `ByteBuffer`, it may start in storage it does not own.
struct ScratchArena<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    /// The elements initialized from `base`: raise it after writing through ``reserve(_:)``, lower it to drop the
    /// tail (trivial elements need no deinitialization).
    var count = 0
    private(set) var capacity: Int
    private var ownsStorage = false

    init(storage: UnsafeMutablePointer<Element>, capacity: Int) {
        assert(_isPOD(Element.self), "ScratchArena holds trivial types only")
        base = storage
        self.capacity = capacity
    }

    /// Frees heap storage (the arena must not be used afterwards).
    func release() {
        if ownsStorage { base.deallocate() }
    }

    /// Appends `element` and returns its index.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    @discardableResult
    mutating func append(_ element: Element) -> Int {
        reserve(1).initialize(to: element)
        count &+= 1
        return count &- 1
    }

    /// The address just past the last element, with room for at least `extra` more; raise `count` after writing them.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<Element> {
        if capacity &- count < extra { grow(minimum: count &+ extra) }
        return base + count
    }

    @inline(never)
    private mutating func grow(minimum: Int) {
        let newCapacity = Swift.max(capacity * 2, minimum, 8)
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        storage.moveInitialize(from: base, count: count)
        release()
        base = storage
        capacity = newCapacity
        ownsStorage = true
    }

    /// Drops the elements from index `newCount` on.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func truncate(to newCount: Int) {
        count = newCount
    }

    // The accessors too: measured with every @inline(__always), 1,040 instructions per HTTP request (issue 14).
    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            assert(index >= 0 && index < count)
            return UnsafePointer(base + index)
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            assert(index >= 0 && index < count)
            return base + index
        }
    }
}
