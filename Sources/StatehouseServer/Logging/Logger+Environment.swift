import Foundation

extension Logger {
    /// The logger `statehouse` uses: standard error (``StandardErrorLogHandler``) in the format
    /// `STATEHOUSE_LOG_FORMAT` names (`text` or `json`, any case; default `text`), at the level `STATEHOUSE_LOG` names
    /// (`debug`, `info`, `warning`, `error`, any case; default `info`). A level that is not one is warned about on
    /// that logger, then `info` is used.
    /// - Parameter environment: the variables to read (nil: this process's).
    /// - Throws: ``LogSettingError`` when `STATEHOUSE_LOG_FORMAT` names no format (`statehouse` then exits 2).
    public static func fromEnvironment(_ environment: [String: String]? = nil) throws(LogSettingError) -> Logger {
        let variables = environment ?? ProcessInfo.processInfo.environment
        var format = LogFormat.text
        if let name = variables["STATEHOUSE_LOG_FORMAT"] {
            guard let named = LogFormat(name: name) else {
                throw LogSettingError(
                    description: "STATEHOUSE_LOG_FORMAT=\(name) is not a log format; use text (the default) or json".escapingLineBreaks)
            }
            format = named
        }
        let setting = variables["STATEHOUSE_LOG"]
        let logger = Logger(level: setting.flatMap(Level.init(name:)) ?? .info, handler: StandardErrorLogHandler(format: format))
        if let setting, Level(name: setting) == nil {
            logger.warning("STATEHOUSE_LOG=\(setting) is not a level; using info (levels: debug, info, warning, error)")
        }
        return logger
    }
}
