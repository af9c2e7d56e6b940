extension JSONDiffer {
    /// Array diff: skip the common prefix and suffix, pair up the middle, then remove/add the surplus; fall back to
    /// one `replace` of the whole array when too many elements change (see `JSONPatch.diff`).
    mutating func diffArrays(_ old: [JSONValue], _ new: [JSONValue]) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = old.count - prefix - suffix
        let newMiddle = new.count - prefix - suffix
        if oldMiddle == 0, newMiddle == 0 { return }

        let limit = max(4, new.count / 2)
        let removals = max(0, oldMiddle - newMiddle)
        let start = operations.count
        var touched = removals
        if touched <= limit {
            for offset in 0..<min(oldMiddle, newMiddle) {
                let before = operations.count
                diffElement(prefix + offset, old[prefix + offset], new[prefix + offset])
                if operations.count > before { touched += 1 }
                if touched > limit { break }
            }
        }
        if touched > limit {
            operations.removeSubrange(start...)
            operations.append(.replace(path: JSONPointer(tokens: currentPath), value: .array(new)))
            return
        }
        if removals > 0 {
            for index in stride(from: prefix + oldMiddle - 1, through: prefix + newMiddle, by: -1) {
                operations.append(.remove(path: JSONPointer(tokens: currentPath + [String(index)])))
            }
        }
        if newMiddle > oldMiddle {
            for index in (prefix + oldMiddle)..<(prefix + newMiddle) {
                operations.append(.add(path: JSONPointer(tokens: currentPath + [String(index)]), value: new[index]))
            }
        }
    }
}
