import TileSync

/// How `convert`, `sync` and `diff` report a merge of several sources: the tiles each source
/// gave to the merged view, and the coordinates several held.
enum MergeOutput {
    /// `  196 tiles from a.mbtiles` per source, then the coordinates held twice; none before
    /// the merge was read.
    static func lines(_ merge: MergedStoreKind?) -> [String] {
        guard let merge, let tally = merge.tally else { return [] }
        let unread = tally.decidedUncompared == 0 ? ""
            : ", \(tally.decidedUncompared) decided unread (--compare-duplicates compares them)"
        return zip(merge.sources, tally.tilesGiven).map { "  \($1) tiles from \($0.address)" }
            + ["Coordinates held by several sources: \(tally.heldAlike) with the same bytes, "
                + "\(tally.decidedByPolicy) decided by --on-duplicate \(merge.policy.rawValue)" + unread]
    }

    /// The `merge` member of a JSON summary: the policy, each source's tiles, the coordinates
    /// held twice; nil without a merge.
    static func json(_ merge: MergedStoreKind?) -> (key: String, value: JSONValue)? {
        guard let merge else { return nil }
        let tally = merge.tally
        let given = tally?.tilesGiven ?? Array(repeating: 0, count: merge.sources.count)
        return ("merge", .object([
            ("on_duplicate", .string(merge.policy.rawValue)),
            ("sources", .array(zip(merge.sources, given).map { .object([("store", .string($0.address)), ("tiles", .int($1))]) })),
            ("held_alike", .int(tally?.heldAlike ?? 0)),
            ("decided_by_policy", .int(tally?.decidedByPolicy ?? 0)),
            ("decided_uncompared", .int(tally?.decidedUncompared ?? 0)),
        ]))
    }
}
