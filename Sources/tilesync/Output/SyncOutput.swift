import TileSync

/// How `sync` and `diff` print plan lines and summaries.
enum SyncOutput {
    static func line(_ entry: TileSynchronizer.PlanEntry) -> String {
        "\(entry.action.rawValue) \(entry.coordinate) (\(entry.size) bytes)"
    }

    static func json(_ entry: TileSynchronizer.PlanEntry) -> JSONValue {
        .object([
            ("action", .string(entry.action.rawValue)), ("tile", .string(entry.coordinate.description)),
            ("z", .int(entry.coordinate.z)), ("x", .int(entry.coordinate.x)), ("y", .int(entry.coordinate.y)),
            ("size", .int(entry.size)),
        ])
    }

    /// `2 added, 0 replaced, 1 deleted, 5 unchanged` for the UTFGrids of a sync or diff.
    static func gridCounts(_ summary: TileSynchronizer.Summary) -> String {
        "\(summary.gridsAdded) added, \(summary.gridsReplaced) replaced, \(summary.gridsDeleted) deleted, \(summary.gridsUnchanged) unchanged"
            + (summary.gridsKept > 0 ? ", \(summary.gridsKept) kept" : "")
    }

    /// - Parameter merge: the merge of several sources, reported as a `merge` member.
    static func json(_ summary: TileSynchronizer.Summary, merge: MergedStoreKind? = nil) -> JSONValue {
        .object([
            ("source", .string(summary.source.address)), ("destination", .string(summary.destination.address)),
            ("added", .int(summary.added)), ("replaced", .int(summary.replaced)), ("deleted", .int(summary.deleted)),
            ("kept", .int(summary.kept)), ("unchanged", .int(summary.unchanged)),
            ("bytes_written", .int(summary.wroteNothing ? 0 : summary.bytesToWrite)),
            ("bytes_to_write", .int(summary.bytesToWrite)), ("bytes_to_delete", .int(summary.bytesToDelete)),
            ("metadata_changed", .bool(summary.metadataChanged)), ("created", .bool(summary.created)),
            ("wrote_nothing", .bool(summary.wroteNothing)), ("quick_check", .bool(summary.quickCheckSkippedComparison)),
            ("invalid_tiles", .int(summary.invalidTiles.count)), ("seconds", .figure(summary.seconds)),
            ("grids", .object([("added", .int(summary.gridsAdded)), ("replaced", .int(summary.gridsReplaced)),
                               ("deleted", .int(summary.gridsDeleted)), ("kept", .int(summary.gridsKept)),
                               ("unchanged", .int(summary.gridsUnchanged))])),
            ("not_carried", json(summary.uncarried)),
            ("raster", RasterOutput.json(summary.rasterReencoding)),
            ("tiles_without_layers", .int(summary.tilesWithoutLayers)),
            ("purged_urls", purgedURLs(summary)),
            ("patch", patch(summary)),
            ("warnings", .array(summary.warnings.map { .string($0) })),
            ("notes", .array(summary.notes.map { .string($0) })),
        ] + [MergeOutput.json(merge)].compactMap { $0 })
    }

    /// The patch written: its hashes and size, null when none was written.
    private static func patch(_ summary: TileSynchronizer.Summary) -> JSONValue {
        guard let patch = summary.patch else { return .null }
        return .object([("before", .string(patch.before.hex)), ("after", .string(patch.after.hex)), ("bytes", .int(patch.bytes))])
    }

    /// The URLs written to the purge list, null when none was written.
    private static func purgedURLs(_ summary: TileSynchronizer.Summary) -> JSONValue {
        summary.purgedURLs.map { JSONValue.int($0) } ?? .null
    }

    /// What a source holds that was not carried: `[{"item": ..., "rows": n or null}]`.
    static func json(_ uncarried: [UncarriedContent]) -> JSONValue {
        .array(uncarried.map { .object([("item", .string($0.item)), ("rows", $0.rows.map { .int($0) } ?? .null)]) })
    }
}
