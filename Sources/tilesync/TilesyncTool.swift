import Foundation
import TileSync

/// The `tilesync` command: dispatches to one command per file under `Commands/`.
@main
enum TilesyncTool {
    static let version = "0.1.0"

    static let commands: [CommandSpec] = [ConvertCommand.spec, SyncCommand.spec, SyncCommand.diffSpec, InfoCommand.spec, VerifyCommand.spec, TileCommand.spec]

    static var help: String {
        var text = """
            OVERVIEW: Convert and sync map tile stores: MBTiles, z/x/y folders and tar archives.

            USAGE: tilesync <command> [<options>] <arguments>

            COMMANDS:

            """
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.abstract + "\n"
        }
        text += """

            OPTIONS:
              --help                  Show help (also: tilesync <command> --help).
              --version               Show the version.

            EXIT STATUS: 0 success, 1 failure, 2 bad usage, 130 interrupted.

            """
        return text
    }

    static func main() {
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    static func run(_ words: [String]) -> Int32 {
        guard let first = words.first else {
            FileHandle.standardError.write(Data(help.utf8))
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if words.count > 1, let spec = commands.first(where: { $0.name == words[1] }) {
                Terminal.out(spec.help)
            } else {
                Terminal.out(help)
            }
            return 0
        case "--version":
            Terminal.out("tilesync \(version)")
            return 0
        default:
            break
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            return fail(UsageError("unknown command '\(first)' (commands: \(commands.map(\.name).joined(separator: ", ")))", spec: nil))
        }
        do {
            let arguments = try ParsedArguments(Array(words.dropFirst()), spec: spec)
            if arguments.flag("help") {
                Terminal.out(spec.help)
                return 0
            }
            switch spec.name {
            case ConvertCommand.spec.name:
                let cancellation = CancellationFlag()
                cancellation.installSignalHandlers()
                return try ConvertCommand.run(arguments, cancellation: cancellation)
            case SyncCommand.spec.name:
                let cancellation = CancellationFlag()
                cancellation.installSignalHandlers()
                return try SyncCommand.runSync(arguments, cancellation: cancellation)
            case SyncCommand.diffSpec.name:
                return try SyncCommand.runDiff(arguments)
            case InfoCommand.spec.name:
                return try InfoCommand.run(arguments)
            case VerifyCommand.spec.name:
                return try VerifyCommand.run(arguments)
            default:
                return try TileCommand.run(arguments)
            }
        } catch {
            return fail(error)
        }
    }

    static func fail(_ error: any Error) -> Int32 {
        switch error {
        case let usage as UsageError:
            Terminal.err("Error: \(usage.message)")
            Terminal.err("Usage: \(usage.usage)")
            Terminal.err("  See 'tilesync \(usage.command.map { "\($0) " } ?? "")--help'.")
            return 2
        case let error as TileStoreError:
            Terminal.err("Error: \(error)")
            return error.kind == .interrupted ? 130 : 1
        case let error as TileCoordinateError:
            Terminal.err("Error: \(error)")
            return 2
        case let error as GeographyError:
            Terminal.err("Error: \(error)")
            return 2
        default:
            Terminal.err("Error: \(error)")
            return 1
        }
    }
}
