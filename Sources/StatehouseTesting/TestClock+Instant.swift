extension TestClock {
    /// A point on a ``TestClock``'s timeline: an exact offset from the clock's start.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// The time since the clock's start (``zero``).
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        ///
        /// - Parameter offset: The time since ``zero``.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The clock's start.
        public static var zero: Instant {
            Instant(offset: .zero)
        }

        /// The instant `duration` later (earlier when negative).
        ///
        /// - Parameter duration: The distance to move.
        /// - Returns: The new instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The signed distance from this instant to `other`.
        ///
        /// - Parameter other: The other instant.
        /// - Returns: `other.offset - offset`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Orders instants by offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }
}
