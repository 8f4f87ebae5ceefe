/// A command as the tool dispatches to it: its spec and its entry point, made from the
/// command's type.
struct CommandEntry: Sendable {
    let spec: CommandSpec
    let main: @Sendable (ParsedArguments) throws -> Int32

    init<C: Command>(_ command: C.Type) {
        spec = C.spec
        main = { arguments in try C.main(arguments) }
    }
}
