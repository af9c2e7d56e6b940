/// Where one fetch of a `Value` stands: not started, in progress, done, or failed with a `Failure`.
///
/// A field of a reducer's state, written in `reduce` only: ``Effect/fetch(_:then:_:)`` sets it to
/// ``loading`` and delivers ``success(_:)`` or ``failure(_:)`` in an action whose reduce stores it.
///
/// ```
///  idle ──fetch──► loading ──operation returns──► success(value)
///   ▲                 │   └──operation throws───► failure(error)
///   └─────────────────┘ operation threw CancellationError (or the reducer resets the field)
/// ```
///
/// - **Equatable / Hashable** when `Value` and `Failure` are: cases and payloads compare with
///   their own `==`. GoodReactor's `DataFetchingState` compared any two errors by
///   `localizedDescription`; this one does not: that text depends on the locale and is the same
///   for different errors (on Linux, "The operation could not be completed" for many), so a new
///   failure could compare equal to an old one and the ``Store`` would skip its version and
///   notify nobody. Use an `Equatable` error type (wrap an `any Error` in one, for example with
///   ``Effect/fetch(_:then:catch:_:)``).
/// - **Codable** when `Value` and `Failure` are, so a served state can hold one:
///   `{"status":"idle"}`, `{"status":"loading"}`, `{"status":"success","value":…}`,
///   `{"status":"failure","error":…}`.
///
/// ## Thread safety
/// A value type; `Sendable` when `Value` is (`Failure`, an `Error`, always is).
public enum DataFetchingState<Value, Failure: Error> {
    /// Nothing fetched yet (or the last fetch was cancelled).
    case idle
    /// A fetch is in progress.
    case loading
    /// The last fetch returned this value.
    case success(Value)
    /// The last fetch failed with this error.
    case failure(Failure)
}

extension DataFetchingState {
    /// Whether this is ``idle``.
    public var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// Whether this is ``loading``.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether this is ``success(_:)``.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// Whether this is ``failure(_:)``.
    public var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    /// The fetched value of ``success(_:)``; `nil` in every other case.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error of ``failure(_:)``; `nil` in every other case.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension DataFetchingState: Sendable where Value: Sendable {}

extension DataFetchingState: Equatable where Value: Equatable, Failure: Equatable {}

extension DataFetchingState: Hashable where Value: Hashable, Failure: Hashable {}

extension DataFetchingState {
    /// The JSON keys: `status` names the case, `value` and `error` carry the payloads.
    private enum CodingKeys: String, CodingKey {
        case status, value, error
    }

    /// The `status` strings, one per case.
    private enum Status: String, Codable {
        case idle, loading, success, failure
    }
}

extension DataFetchingState: Encodable where Value: Encodable, Failure: Encodable {
    /// Encodes `{"status":"idle"}`, `{"status":"loading"}`, `{"status":"success","value":…}` or
    /// `{"status":"failure","error":…}`.
    ///
    /// - Throws: Whatever encoding the value or the error throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .idle:
            try container.encode(Status.idle, forKey: .status)
        case .loading:
            try container.encode(Status.loading, forKey: .status)
        case .success(let value):
            try container.encode(Status.success, forKey: .status)
            try container.encode(value, forKey: .value)
        case .failure(let error):
            try container.encode(Status.failure, forKey: .status)
            try container.encode(error, forKey: .error)
        }
    }
}

extension DataFetchingState: Decodable where Value: Decodable, Failure: Decodable {
    /// Decodes the shape ``encode(to:)`` writes.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when `status` is not one of `idle`, `loading`,
    ///   `success`, `failure`; `DecodingError.keyNotFound` when `success` lacks `value` or
    ///   `failure` lacks `error`; whatever decoding the value or the error throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .status)
        guard let status = Status(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .status,
                in: container,
                debugDescription: "\"\(text)\" is not a status; use idle, loading, success or failure."
            )
        }
        switch status {
        case .idle: self = .idle
        case .loading: self = .loading
        case .success: self = .success(try container.decode(Value.self, forKey: .value))
        case .failure: self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}
