import Testing

/// Where a ``TestStore`` method was called from, for `Issue.record`.
struct CallSite {
    let fileID: String
    let filePath: String
    let line: Int
    let column: Int

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Records one test issue at this call site.
    func fail(_ message: String) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
