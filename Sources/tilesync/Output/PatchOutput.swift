import TileSync

/// How `diff --patch` and `apply` print their summaries as JSON.
enum PatchOutput {
    static func json(_ summary: TilePatcher.Summary) -> JSONValue {
        .object([
            ("patch", .string(summary.patchPath)), ("base", .string(summary.base.address)), ("target", .string(summary.target.address)),
            ("added", .int(summary.added)), ("replaced", .int(summary.replaced)), ("deleted", .int(summary.deleted)),
            ("bytes_put", .int(summary.bytesPut)), ("metadata_changes", .int(summary.metadataChanges)),
            ("patch_bytes", .int(summary.patchBytes)),
            ("agg_tiles_hash_before_apply", .string(summary.beforeHash.hex)),
            ("agg_tiles_hash_after_apply", .string(summary.afterHash.hex)),
            ("invalid_tiles", .int(summary.invalidTiles.count)), ("seconds", .figure(summary.seconds)),
        ])
    }

    static func json(_ summary: TilePatcher.ApplySummary) -> JSONValue {
        .object([
            ("patch", .string(summary.patchPath)), ("store", .string(summary.store.address)),
            ("already_applied", .bool(summary.alreadyApplied)),
            ("added", .int(summary.added)), ("replaced", .int(summary.replaced)), ("deleted", .int(summary.deleted)),
            ("absent_deletions", .int(summary.absentDeletions)), ("bytes_put", .int(summary.bytesPut)),
            ("metadata_changes", .int(summary.metadataChanges)),
            ("agg_tiles_hash_before", .string(summary.beforeHash.hex)), ("agg_tiles_hash_after", .string(summary.afterHash.hex)),
            ("seconds", .figure(summary.seconds)), ("warnings", .array(summary.warnings.map { .string($0) })),
        ])
    }
}
