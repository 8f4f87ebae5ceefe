import TileSync

/// A `tilesync` command: its spec (help and the options it accepts) and its typed values.
/// `init(parsing:)` parses and validates everything before any store is read or written;
/// `run` does the work.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    /// True for commands that stop cleanly at Ctrl-C (they poll the flag between tiles).
    static var catchesSignals: Bool { get }
    /// Seconds after Ctrl-C at which the process exits even if the work did not stop by itself
    /// (removing the temporaries of `writtenStores` first); a second Ctrl-C exits at once.
    static var interruptGrace: Double { get }

    /// Reads the command line into typed values and checks them.
    /// - Throws: `UsageError` for bad usage (exit 2), `TileStoreError` for a location that names
    ///   no store (exit 1).
    init(parsing arguments: ParsedArguments) throws

    /// The stores the command writes (for a forced exit's clean-up); none by default.
    var writtenStores: [TileStoreLocation] { get }

    /// Does the work; the exit status.
    func run(cancellation: CancellationFlag) throws -> Int32
}

extension Command {
    static var catchesSignals: Bool { false }
    static var interruptGrace: Double { 1 }
    var writtenStores: [TileStoreLocation] { [] }

    /// Parses the command line and runs the command (with signal handling when it catches
    /// signals): the one entry the tool dispatches to.
    static func main(_ arguments: ParsedArguments) throws -> Int32 {
        let command = try Self(parsing: arguments)
        let cancellation = CancellationFlag()
        if catchesSignals { cancellation.installSignalHandlers(grace: interruptGrace, writes: command.writtenStores) }
        defer { cancellation.runEnded() }
        return try command.run(cancellation: cancellation)
    }
}
