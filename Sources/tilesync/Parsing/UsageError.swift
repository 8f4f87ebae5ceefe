/// The command line itself is wrong: printed with the usage line, exit status 2.
struct UsageError: Error {
    let message: String
    let usage: String
    let command: String?

    init(_ message: String, spec: CommandSpec?) {
        self.message = message
        self.usage = spec?.usage ?? "tilesync <command> [<options>] ..."
        self.command = spec?.name
    }
}
