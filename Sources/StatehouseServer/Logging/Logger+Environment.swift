import Foundation

extension Logger {
    /// The logger `statehouse` uses: standard error (``StandardErrorLogHandler``) at the level `STATEHOUSE_LOG` names
    /// (`debug`, `info`, `warning`, `error`, any case; default `info`). A value that is not a level is warned about
    /// on that logger, then `info` is used.
    /// - Parameter environment: the variables to read (nil: this process's).
    public static func fromEnvironment(_ environment: [String: String]? = nil) -> Logger {
        let setting = (environment ?? ProcessInfo.processInfo.environment)["STATEHOUSE_LOG"]
        let logger = Logger(level: setting.flatMap(Level.init(name:)) ?? .info, handler: StandardErrorLogHandler())
        if let setting, Level(name: setting) == nil {
            logger.warning("STATEHOUSE_LOG=\(setting) is not a level; using info (levels: debug, info, warning, error)")
        }
        return logger
    }
}
