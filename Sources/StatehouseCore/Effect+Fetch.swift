extension Effect {
    /// Fetches a value for a ``DataFetchingState`` field of the state: sets the field to
    /// ``DataFetchingState/loading`` at once, runs `operation` in a task the store owns, and
    /// delivers the outcome as the action `action(outcome)`, whose reduce stores it.
    ///
    /// The outcome is ``DataFetchingState/success(_:)`` with the returned value,
    /// ``DataFetchingState/failure(_:)`` with the thrown error, or ``DataFetchingState/idle`` when
    /// `operation` throws `CancellationError` on its own (possible when `Failure` is `any Error`).
    ///
    /// ```swift
    /// case .load:                     // api.profile: () async throws(APIError) -> Profile
    ///     return .fetch(&state.profile, then: Action.profileChanged, api.profile)
    /// case .profileChanged(let profile):
    ///     state.profile = profile
    ///     return .none
    /// ```
    ///
    /// `operation` must be a typed-throws function (as `api.profile` above) or a closure that
    /// spells its type (`{ () async throws(APIError) -> Profile in … }`): without the upcoming
    /// feature `FullTypedThrows`, Swift infers a closure literal's `try` as `throws(any Error)`,
    /// which does not convert to `throws(APIError)`. For an ordinary closure use
    /// ``fetch(_:then:catch:_:)``.
    ///
    /// Cancellation is exact: when the store cancels the effect's run (``cancel(_:)``,
    /// `cancelInFlight`, a reset, a stop), **nothing** is delivered, not even `.idle`: a cancelled
    /// run's actions are dropped. The reduce that cancels owns the field and sets it itself
    /// (`state.profile = .idle; return .cancel(ProfileFetch())`). With
    /// `.cancellable(id, cancelInFlight: true)` a new fetch sets `.loading` again and only its own
    /// outcome arrives. Do not throttle a fetch without `latest: true`: an ignored fetch has
    /// already set the field to `.loading` and would deliver nothing.
    ///
    /// GoodReactor's `fetch(event, \.keyPath)` wrote the field from the effect; in a reducer store
    /// state changes only in `reduce`, hence the `then:` action.
    ///
    /// - Parameters:
    ///   - field: The state's field; set to `.loading` before this function returns.
    ///   - action: Makes the action that carries the outcome (an enum case such as
    ///     `Action.profileChanged` fits).
    ///   - operation: Produces the value; may throw `Failure`.
    /// - Returns: The effect that runs `operation` and delivers its outcome.
    public static func fetch<Value: Sendable, Failure: Error>(
        _ field: inout DataFetchingState<Value, Failure>,
        then action: @escaping @Sendable (DataFetchingState<Value, Failure>) -> Action,
        _ operation: @escaping @Sendable () async throws(Failure) -> Value
    ) -> Effect {
        field = .loading
        return .sequence { send in
            let outcome: DataFetchingState<Value, Failure>
            do throws(Failure) {
                outcome = .success(try await operation())
            } catch {
                outcome = error is CancellationError ? .idle : .failure(error)
            }
            await send(action(outcome))
        }
    }

    /// ``fetch(_:then:_:)`` for an operation with untyped `throws`: `catch` maps each thrown error
    /// (other than `CancellationError`, which gives ``DataFetchingState/idle``) to the field's
    /// `Failure`, so the state can keep an `Equatable` (and `Codable`) error type.
    ///
    /// ```swift
    /// case .load:
    ///     return .fetch(&state.profile, then: Action.profileChanged, catch: APIError.init) {
    ///         [id = state.userID] in try await api.profile(id: id)   // throws any Error
    ///     }
    /// ```
    ///
    /// Cancellation as in ``fetch(_:then:_:)``: a run cancelled by the store delivers nothing.
    ///
    /// - Parameters:
    ///   - field: The state's field; set to `.loading` before this function returns.
    ///   - action: Makes the action that carries the outcome.
    ///   - catch: Maps a thrown error to the field's `Failure`.
    ///   - operation: Produces the value; may throw any error.
    /// - Returns: The effect that runs `operation` and delivers its outcome.
    public static func fetch<Value: Sendable, Failure: Error>(
        _ field: inout DataFetchingState<Value, Failure>,
        then action: @escaping @Sendable (DataFetchingState<Value, Failure>) -> Action,
        catch: @escaping @Sendable (any Error) -> Failure,
        _ operation: @escaping @Sendable () async throws -> Value
    ) -> Effect {
        field = .loading
        return .sequence { send in
            let outcome: DataFetchingState<Value, Failure>
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = error is CancellationError ? .idle : .failure(`catch`(error))
            }
            await send(action(outcome))
        }
    }
}
