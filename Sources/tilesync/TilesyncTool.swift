import Foundation
import TileSync

/// The `tilesync` command: dispatches to one command per file under `Commands/`.
@main
enum TilesyncTool {
    static let version = TileSyncVersion.current

    static let commands: [CommandEntry] = [
        CommandEntry(ConvertCommand.self), CommandEntry(SyncCommand.self), CommandEntry(DiffCommand.self), CommandEntry(ApplyCommand.self),
        CommandEntry(InfoCommand.self), CommandEntry(MetaCommand.self), CommandEntry(VerifyCommand.self), CommandEntry(TileCommand.self), CommandEntry(ServeCommand.self),
    ]

    static var help: String {
        var text = """
            OVERVIEW: Convert and sync map tile stores: MBTiles, z/x/y folders, tar and PMTiles archives,
            and S3 object storage (s3://bucket/prefix; PMTiles at s3:// or http(s):// by range requests).

            USAGE: tilesync <command> [<options>] <arguments>

            COMMANDS:

            """
        for command in commands.map({ $0.spec }) {
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
        MallocSettings.apply()
        let status = run(Array(CommandLine.arguments.dropFirst()))
        // Everything is written and renamed by now (output goes out unbuffered): end without the
        // exit-time teardown, where a networking thread still winding down once aborted a finished run.
        fflush(nil)
        _exit(status)
    }

    static func run(_ words: [String]) -> Int32 {
        guard let first = words.first else {
            FileHandle.standardError.write(Data(help.utf8))
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if words.count > 1, let command = commands.first(where: { $0.spec.name == words[1] }) {
                Terminal.out(command.spec.helpText)
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
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let names = commands.map(\.spec.name).joined(separator: ", ")
            return fail(UsageError("unknown command '\(first)' (commands: \(names))", spec: nil))
        }
        do {
            let arguments = try ParsedArguments(Array(words.dropFirst()), spec: command.spec)
            if arguments.flag(CommandSpec.help) {
                Terminal.out(command.spec.helpText)
                return 0
            }
            return try command.main(arguments)
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
