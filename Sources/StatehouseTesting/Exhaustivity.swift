/// How strictly a ``TestStore`` checks what the test did not assert.
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change must be asserted exactly (the closure of `send`/`receive` must turn the
    /// previous state into the new one), and every action an effect produced must be `receive`d
    /// before the next `send` and before `finish()`.
    case on
    /// Only what the test asserts is checked: a `send`/`receive` closure must describe fields that
    /// hold those values afterwards (other fields may differ), `receive` skips other received
    /// actions until a matching one arrives, and unreceived actions never fail.
    case off
}
