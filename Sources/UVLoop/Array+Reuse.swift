extension Array {
    /// Empties the array and keeps its storage, like `removeAll(keepingCapacity: true)`, but in code specialized for
    /// `Element` (the standard library's version destroys the elements through runtime value witnesses).
    mutating func removeAllKeepingCapacity() {
        while popLast() != nil {}
    }
}
