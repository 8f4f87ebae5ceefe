import TileSync

/// `tilesync apply PATCH... STORE`.
struct ApplyCommand: Command {
    static let force = OptionDefinition.flag("force", help: "Apply even when the store is not the patch's base\n(its agg_tiles_hash differs) or the result would not match.")

    static let spec = CommandSpec(
        name: "apply",
        abstract: "Apply a patch file (martin's diff format) to a store of any kind.",
        discussion: """
            Reads a patch made by `tilesync diff A B --patch FILE` or martin's `mbtiles diff`: the
            tiles to add or replace, NULL rows for tiles to delete, metadata to set (NULL removes a
            key). One pass over the store first computes its agg_tiles_hash now and once patched:
            a store whose hash is not the patch's agg_tiles_hash_before_apply is refused, and so is
            a patch whose result would not be its agg_tiles_hash_after_apply, changing nothing
            (--force applies anyway). A store that already holds the result is left untouched,
            so running apply again is safe. The result is checked once applied.
            An MBTiles changes in one transaction (readers see the old tiles or the new ones), a
            folder through a journal that the next run completes if interrupted, a tar or
            PMTiles archive is rewritten and renamed, an s3:// store object by object.
            Binary patches (martin's bsdiffraw, bsdiffrawgz) are not supported.
            Several patches are a chain, applied in order as one change: each one's
            agg_tiles_hash_before_apply must be the previous one's agg_tiles_hash_after_apply
            (a missing link or a wrong order is refused naming both, before the store is read).
            """,
        arguments: [
            .init(name: "patch", help: "The patch file; several are applied in order as one change.", isVariadic: true),
            .init(name: "store", help: "The store to change: an MBTiles file, a folder, a tar or\nPMTiles archive, an s3:// prefix."),
        ],
        options: [force, LayoutOptions.Role.store.layout, LayoutOptions.Role.store.scheme]
            + StoreKindOptions.definitions(for: [.change]) + OutputOptions.definitions,
        examples: [
            "tilesync apply update.mbtiles world.mbtiles",
            "tilesync apply update.mbtiles tiles/",
            "tilesync apply 2026-12-04.patch 2026-12-05.patch 2026-12-06.patch offline.mbtiles",
        ])

    static let catchesSignals = true

    let patchPaths: [String]
    var patchPath: String { patchPaths.joined(separator: " + ") }
    let store: TileStoreLocation
    var writtenStores: [TileStoreLocation] { [store] }
    let force: Bool
    let output: OutputOptions

    init(parsing arguments: ParsedArguments) throws {
        patchPaths = Array(arguments.positionals.dropLast())
        store = try StoreArgument.store(at: arguments.positionals.count - 1, of: arguments, use: .change)
        force = arguments.flag(Self.force)
        output = OutputOptions(arguments)
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        var options = TilePatcher.ApplyOptions()
        options.force = force
        options.isCancelled = { cancellation.isSet }
        let summary = try TilePatcher.apply(patches: patchPaths, to: store, options: options)
        if output.json {
            Terminal.out(JSONWriter.text(PatchOutput.json(summary)))
            return 0
        }
        if output.quiet { return 0 }
        for warning in summary.warnings { Terminal.err("Warning: \(warning)") }
        if summary.alreadyApplied {
            Terminal.out("Nothing to do: \(store.address) already holds what \(patchPath) gives (agg_tiles_hash \(summary.afterHash.hex))")
            return 0
        }
        let absent = summary.absentDeletions > 0 ? ", \(summary.absentDeletions) deletions of absent tiles" : ""
        Terminal.out("Applied \(patchPath) to \(store.address): \(summary.added) added, \(summary.replaced) replaced, "
            + "\(summary.deleted) deleted\(absent), \(summary.metadataChanges) metadata "
            + (summary.metadataChanges == 1 ? "change" : "changes") + " (\(Formatting.bytes(summary.bytesPut)) written) in \(Formatting.seconds(summary.seconds))")
        Terminal.out("agg_tiles_hash \(summary.beforeHash.hex) -> \(summary.afterHash.hex)")
        return 0
    }
}
