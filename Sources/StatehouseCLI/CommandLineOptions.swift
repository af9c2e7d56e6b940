/// The one reader of a command's arguments (`serve`, `replay`, `backup` and the client commands), in order.
enum CommandLineOptions {
    /// Walks `arguments` in order: each of `options` with the argument after it as its value, each of `flags` alone
    /// (value nil), both handed to `take`; an argument not starting with `--` to `positional`. Exits 2 on any other
    /// `--` argument (`unknown option ARG<context>; see HELP`) or an option without its value (`OPTION needs a value;
    /// see HELP`). `take` and `positional` may exit too (a bad value, an unexpected argument), at the argument's turn.
    /// - Parameters:
    ///   - context: after the unknown option's name, e.g. ` for replay` (may be empty).
    ///   - help: what the messages point to, e.g. `statehouse --help`.
    static func scan(
        _ arguments: [String], options: Set<String>, flags: Set<String> = [], context: String, help: String,
        positional: (String) -> Void, take: (_ option: String, _ value: String?) -> Void
    ) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if flags.contains(argument) {
                take(argument, nil)
                continue
            }
            guard argument.hasPrefix("--") else {
                positional(argument)
                continue
            }
            guard options.contains(argument) else { fail("unknown option \(argument)\(context); see \(help)", code: 2) }
            guard let value = rest.popFirst() else { fail("\(argument) needs a value; see \(help)", code: 2) }
            take(argument, value)
        }
    }
}
