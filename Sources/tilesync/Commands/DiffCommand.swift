import TileSync

/// `tilesync diff A B`.
struct DiffCommand: Command {
    static let limit = OptionDefinition.value("limit", "n", help: "Print at most n plan lines (default 20; 0 for all).")
    static let json = OptionDefinition.flag("json", help: "One JSON object per plan entry, then a summary object.")

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Show what would make the second store equal to the first.",
        discussion: """
            Lists tiles to add, replace and delete, and counts the unchanged ones, comparing sizes,
            modification times (folders) and MD5s as sync does. Exit status 0 when the stores are
            in sync, 1 when they differ.
            """,
        arguments: [
            .init(name: "source", help: "The store taken as the reference."),
            .init(name: "destination", help: "The store compared with it."),
        ],
        options: [SyncCommand.checksum] + StorePairOptions.definitions(destination: .existingDestination) + [limit, json],
        examples: [
            "tilesync diff world.mbtiles world_modified.mbtiles",
            "tilesync diff tiles/ world.mbtiles --json",
        ])

    let stores: StorePairOptions
    let options: SyncOptions
    let limit: Int
    let printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        stores = try StorePairOptions(arguments, destination: .existingDestination)
        var options = SyncOptions()
        options.filter = stores.filter
        options.checksum = arguments.flag(SyncCommand.checksum)
        self.options = options
        limit = try arguments.integer(Self.limit, in: 0...Int.max) ?? 20
        printsJSON = arguments.flag(Self.json)
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        var shown = 0
        let summary = try TileSynchronizer.diff(from: stores.source, to: stores.destination, options: options) { entry in
            if printsJSON {
                Terminal.out(JSONText.render(SyncOutput.json(entry)))
            } else if limit == 0 || shown < limit {
                Terminal.out(SyncOutput.line(entry))
            }
            shown += 1
        }
        if printsJSON {
            Terminal.out(JSONText.render(.object([("summary", SyncOutput.json(summary))])))
        } else {
            if limit > 0, shown > limit { Terminal.out("... and \(shown - limit) more") }
            Terminal.out("add: \(summary.added) tiles (\(Formatting.bytes(summary.bytesToAdd)))")
            Terminal.out("replace: \(summary.replaced) tiles (\(Formatting.bytes(summary.bytesToReplace)))")
            Terminal.out("delete: \(summary.deleted) tiles (\(Formatting.bytes(summary.bytesToDelete)))")
            Terminal.out("unchanged: \(summary.unchanged) tiles")
            Terminal.out("metadata: \(summary.metadataChanged ? "differs" : "same")")
        }
        return summary.isInSync ? 0 : 1
    }
}
