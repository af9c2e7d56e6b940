import Foundation
import Statehouse
import StatehouseCore
import HTTP1
import Locking

/// Actions of a clustered store: run by the owner, forwarded by every other node.
extension ClusteredStore {
    /// Runs the actions here when this node owns the store, else forwards them to the owner (taking the lease first
    /// when nobody holds it). `onlyHere`: a forwarded action, which must not travel again (`moved` instead).
    func run(
        _ leading: ArraySlice<R.Action>, _ last: R.Action, waiter: PreparedAction.Waiter, note: IdempotencyNote?,
        deadlineNs: UInt64, onlyHere: Bool = false
    ) {
        let again: @Sendable () -> Void = { [self] in
            run(leading, last, waiter: waiter, note: note, deadlineNs: deadlineNs, onlyHere: onlyHere)
        }
        let waiting = Waiting(again: again, fail: { error in Self.fail(waiter, error) })
        let next: ClusterNext = machine.withLock { machine in
            switch machine.role {
            case .owning(let typed, _):
                if let note, let stored = machine.restoredKeys[note.key], stored.expiresMs > StorageClock.nowMs { return .replay(stored) }
                typed.submit(leading, last, note: note, waiter)
                return .done
            case .acquiring, .steppingDown, .following:
                return notOwning(&machine, onlyHere: onlyHere, waiting: waiting)
            }
        }
        switch next {
        case .done: break
        case .acquire: acquire()
        case .moved: Self.fail(waiter, .storeMoved)
        case .replay(let stored):
            guard stored.fingerprint == note?.fingerprint else { return Self.fail(waiter, .idempotencyKeyReused(field: "Idempotency-Key")) }
            Self.succeed(waiter, StateReply(version: stored.version, state: stored.state), timedOut: false)
        case .forward(let owner):
            forward(leading, last, waiter: waiter, note: note, owner: owner, deadlineNs: deadlineNs, again: again)
        }
    }

    /// Sends the actions to the node holding `owner` (a lease value) and answers `waiter` with its answer.
    private func forward(
        _ leading: ArraySlice<R.Action>, _ last: R.Action, waiter: PreparedAction.Waiter, note: IdempotencyNote?,
        owner: String, deadlineNs: UInt64, again: @escaping @Sendable () -> Void
    ) {
        var actions: [UInt8] = [UInt8(ascii: "[")]
        for (index, action) in (leading + [last]).enumerated() {
            if index > 0 { actions.append(UInt8(ascii: ",")) }
            actions += FluxStandardActionEncoding.encode(action) ?? Array("null".utf8)
        }
        actions.append(UInt8(ascii: "]"))
        var forward = ClusterMessage.Forward(from: node.name, ref: 0, store: name)
        forward.actions = actions
        forward.key = note?.key
        forward.fingerprint = note?.fingerprint ?? 0
        if case .settled(let timeout, _) = waiter { forward.settleTimeoutMs = Int(timeout / .milliseconds(1)) }
        node.forward(forward, to: Self.node(of: owner)) { [self] outcome in
            switch outcome {
            case .answered(.reduced(let reply, let timedOut, _)):
                Self.succeed(waiter, reply, timedOut: timedOut)
            case .answered(.refused(let status, let code, let message)):
                Self.fail(waiter, APIError(
                    status: status, code: code, message: message,
                    fields: status == 503 ? [HTTPField(name: "Retry-After", value: "1")] : []))
            case .answered(.moved), .ownerGone:
                forget(owner, gone: outcome.isOwnerGone)
                retry(again, waiter: waiter, deadlineNs: deadlineNs, afterMs: 20)
            case .failed(let error):
                Self.fail(waiter, .clusterUnreachable(error))
            case .timedOut:
                // The owner reads its inbox but does not answer (paused, overloaded): ask Redis who owns the store
                // next time (its lease runs out if it is stuck). A keyed action is safe to send again: its key
                // answers it if the owner applied it; without a key it may have been applied, so it is not resent.
                forget(owner, gone: false)
                if note != nil {
                    retry(again, waiter: waiter, deadlineNs: deadlineNs, afterMs: 20)
                } else {
                    Self.fail(waiter, .ownerDidNotAnswer)
                }
            }
        }
    }

    /// What an action (or a reset) does, under the lock, when this node does not own the store: wait for the role to
    /// settle (`waiting` runs again then), go to the owner it knows, or take the lease (not while the node drains).
    /// `onlyHere`: forwarded to this node, so it must not travel again (`moved`).
    private func notOwning(_ machine: inout Machine, onlyHere: Bool, waiting: Waiting) -> ClusterNext {
        switch machine.role {
        case .owning:
            preconditionFailure("notOwning is called for a store this node does not own")
        case .acquiring, .steppingDown:
            machine.waiting.append(waiting)
            return .done
        case .following:
            if onlyHere { return .moved }
            if let owner = machine.owner, !machine.isGone(owner) { return .forward(owner) }
            guard !node.isDraining else { return .moved }
            machine.role = .acquiring
            machine.waiting.append(waiting)
            return .acquire
        }
    }

    /// The node holding `owner` (a lease value) did not take a forwarded action: ask Redis who owns the store next
    /// time; `gone` (nobody reads its inbox): do not ask it again for ``goneOwnerPauseNs``.
    private func forget(_ owner: String, gone: Bool) {
        machine.withLock { machine in
            if machine.owner == owner { machine.owner = nil }
            if gone { machine.goneOwner = (owner, MonotonicClock.nowNs() + Self.goneOwnerPauseNs) }
        }
    }

    /// Runs `again` after `afterMs`, or answers 503 when the action's deadline has passed.
    func retry(_ again: @escaping @Sendable () -> Void, waiter: PreparedAction.Waiter, deadlineNs: UInt64, afterMs: Int) {
        guard MonotonicClock.nowNs() + UInt64(afterMs) * 1_000_000 < deadlineNs else {
            return Self.fail(waiter, .storeUnavailable)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(afterMs)) { again() }
    }

    /// The node of a lease value `NODE:TOKEN`.
    static func node(of lease: String) -> String {
        guard let colon = lease.lastIndex(of: ":") else { return lease }
        return String(lease[..<colon])
    }

    static func succeed(_ waiter: PreparedAction.Waiter, _ reply: StateReply, timedOut: Bool) {
        switch waiter {
        case .reduced(let answer): answer(.success(reply))
        case .settled(_, let answer): answer(.success(timedOut ? .timedOut(reply) : .settled(reply)))
        }
    }

    static func fail(_ waiter: PreparedAction.Waiter, _ error: APIError) {
        switch waiter {
        case .reduced(let answer): answer(.failure(error))
        case .settled(_, let answer): answer(.failure(error))
        }
    }

    /// `POST /stores/{name}/reset`: here when this node owns the store, else forwarded.
    func reset(_ reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void) {
        resetOnce(reply, deadlineNs: deadline(), onlyHere: false)
    }

    func resetOnce(_ reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void, deadlineNs: UInt64, onlyHere: Bool) {
        let waiter = PreparedAction.Waiter.reduced(reply)
        let again: @Sendable () -> Void = { [self] in resetOnce(reply, deadlineNs: deadlineNs, onlyHere: onlyHere) }
        let next: ClusterNext = machine.withLock { machine in
            switch machine.role {
            case .owning(let typed, _):
                typed.store.enqueueReset(
                    .restoringInitialState, completion: { reply(.success(StateReply(version: $0.version, state: TypedStore<R>.encode($0.state)))) },
                    notWritten: { reply(.failure(.notWritten($0))) })
                return .done
            case .acquiring, .steppingDown, .following:
                return notOwning(&machine, onlyHere: onlyHere, waiting: Waiting(again: again, fail: { reply(.failure($0)) }))
            }
        }
        switch next {
        case .done: break
        case .acquire: acquire()
        case .moved: reply(.failure(.storeMoved))
        case .replay: break
        case .forward(let owner):
            var forward = ClusterMessage.Forward(from: node.name, ref: 0, store: name)
            forward.reset = true
            node.forward(forward, to: Self.node(of: owner)) { [self] outcome in
                switch outcome {
                case .answered(.reduced(let state, _, _)): reply(.success(state))
                case .answered(.refused(let status, let code, let message)):
                    reply(.failure(APIError(status: status, code: code, message: message)))
                case .answered(.moved), .ownerGone:
                    forget(owner, gone: outcome.isOwnerGone)
                    retry(again, waiter: waiter, deadlineNs: deadlineNs, afterMs: 20)
                case .failed(let error): reply(.failure(.clusterUnreachable(error)))
                case .timedOut:
                    forget(owner, gone: false)
                    reply(.failure(.ownerDidNotAnswer))
                }
            }
        }
    }

    // MARK: The owner's side

    /// Another node's action for this store (the subscriber's thread): applied here (with its idempotency key checked
    /// against this node's cache, which holds the keys Redis had when this node took the lease) and answered.
    func forwarded(_ forward: ClusterMessage.Forward) {
        let from = forward.from
        let ref = forward.ref
        let answer: @Sendable (ClusterMessage.Answer) -> Void = { [node] in node.answer(ref, to: from, $0) }
        let hosted = machine.withLock { $0.hosted }
        guard let hosted else { return answer(.moved) }
        if forward.reset {
            resetOnce({ result in answer(Self.answer(result.map { IdempotencyCache.Outcome.reduced($0) }.orFailed, replayed: false)) }, deadlineNs: deadline(), onlyHere: true)
            return
        }
        var bound: (ArraySlice<R.Action>, R.Action)?
        switch TypedStore<R>.prepare(actionJSON: forward.actions, decoded: decoded, bind: { leading, last in
            bound = (leading, last)
            return PreparedAction { _, _ in }
        }) {
        case .failure(let error): return answer(Self.refused(error))
        case .success: break
        }
        guard let (leading, last) = bound else { return answer(.moved) }
        let wait: ActionWait = forward.settleTimeoutMs.map { .settled(.milliseconds($0)) } ?? .reduced
        var gate: IdempotencyGate?
        var note: IdempotencyNote?
        if let key = forward.key {
            switch IdempotencyGate.begin(
                key: key, field: "Idempotency-Key", fingerprint: forward.fingerprint, store: hosted, on: node.loop,
                waiter: { answer(Self.answer($0, replayed: true)) })
            {
            case .run(let started, let journaled):
                gate = started
                note = journaled
            case .waiting: return
            case .replay(let outcome): return answer(Self.answer(outcome, replayed: true))
            case .refused(let error): return answer(Self.refused(error))
            }
        }
        let finish: @Sendable (IdempotencyCache.Outcome) -> Void = { [gate] outcome in
            if case .failed(let error) = outcome, error == .storeMoved {
                gate?.complete(with: outcome)
                return answer(.moved)
            }
            answer(Self.answer(outcome, replayed: false))
            gate?.complete(with: outcome)
        }
        let waiter: PreparedAction.Waiter = switch wait {
        case .reduced:
            .reduced { result in finish(result.map { IdempotencyCache.Outcome.reduced($0) }.orFailed) }
        case .settled(let timeout):
            .settled(timeout: timeout) { result in
                finish(result.map { outcome -> IdempotencyCache.Outcome in
                    switch outcome {
                    case .settled(let reply): .reduced(reply)
                    case .timedOut(let reply): .timedOut(reply)
                    }
                }.orFailed)
            }
        }
        run(leading, last, waiter: waiter, note: note, deadlineNs: deadline(), onlyHere: true)
    }

    static func answer(_ outcome: IdempotencyCache.Outcome, replayed: Bool) -> ClusterMessage.Answer {
        switch outcome {
        case .reduced(let reply): .reduced(reply, timedOut: false, replayed: replayed)
        case .timedOut(let reply): .reduced(reply, timedOut: true, replayed: replayed)
        case .failed(let error): refused(error)
        }
    }

    static func refused(_ error: APIError) -> ClusterMessage.Answer {
        error == .storeMoved ? .moved : .refused(status: error.status, code: error.code, message: error.message)
    }
}

/// What an action does next, decided under the store's lock.
enum ClusterNext {
    case done, forward(String), acquire, replay(StoredKey), moved
}

extension Result where Success == IdempotencyCache.Outcome, Failure == APIError {
    /// A failure as the outcome `.failed`.
    var orFailed: IdempotencyCache.Outcome {
        switch self {
        case .success(let outcome): outcome
        case .failure(let error): .failed(error)
        }
    }
}
