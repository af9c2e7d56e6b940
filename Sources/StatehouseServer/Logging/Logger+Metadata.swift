extension Logger {
    /// Key-value pairs that describe where a record comes from (`store`, `conn`, …), in the order they were first
    /// set: a key appears once; setting it again replaces its value in place.
    ///
    /// ```swift
    /// var metadata: Logger.Metadata = ["store": "counter"]
    /// metadata["conn"] = "7"
    /// metadata.description   // store=counter conn=7
    /// ```
    ///
    /// ## Thread safety
    /// Sendable (a value).
    public struct Metadata: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
        /// The pairs, in first-set order, each key once.
        public private(set) var pairs: [(key: String, value: String)] = []

        public init() {}

        /// Later duplicates of a key replace the earlier value (in the earlier place).
        public init(dictionaryLiteral elements: (String, String)...) {
            for (key, value) in elements { self[key] = value }
        }

        public var isEmpty: Bool { pairs.isEmpty }
        public var count: Int { pairs.count }

        /// The value of `key`, or nil; setting nil removes the key.
        public subscript(key: String) -> String? {
            get { pairs.first { $0.key == key }?.value }
            set {
                let index = pairs.firstIndex { $0.key == key }
                switch (index, newValue) {
                case (let index?, let value?): pairs[index].value = value
                case (let index?, nil): pairs.remove(at: index)
                case (nil, let value?): pairs.append((key, value))
                case (nil, nil): break
                }
            }
        }

        /// Sets every pair of `other` (its values win; its new keys come after this one's).
        public mutating func merge(_ other: Metadata) {
            for (key, value) in other.pairs { self[key] = value }
        }

        public func makeIterator() -> IndexingIterator<[(key: String, value: String)]> { pairs.makeIterator() }

        public static func == (a: Metadata, b: Metadata) -> Bool {
            a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        }

        /// `key=value` pairs separated by one space. A value that is empty or holds a space, `"`, `=` or a control
        /// character is quoted, with `"`, `\` and control characters escaped (`\"`, `\\`, `\n`, `\u{…}`):
        /// `path="/tmp/my data"`.
        public var description: String {
            pairs.map { "\($0.key)=\(Self.quotedIfNeeded($0.value))" }.joined(separator: " ")
        }

        static func quotedIfNeeded(_ value: String) -> String {
            let needsQuotes = value.isEmpty || value.unicodeScalars.contains { scalar in
                scalar == " " || scalar == "\"" || scalar == "=" || String.breaksLine(scalar)
            }
            guard needsQuotes else { return value }
            // `"` and `\` first, so the escapes escapingLineBreaks adds are not escaped again.
            var escaped = ""
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { escaped.unicodeScalars.append("\\") }
                escaped.unicodeScalars.append(scalar)
            }
            return "\"\(escaped.escapingLineBreaks)\""
        }
    }
}
