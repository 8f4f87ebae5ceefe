/// The metadata keys of martin's patch (diff) files.
enum PatchMetadataKeys {
    /// The aggregate hash of a store; in a patch, of the patch's own rows.
    static let aggregateHash = "agg_tiles_hash"
    /// The aggregate hash the store must have before the patch is applied.
    static let before = "agg_tiles_hash_before_apply"
    /// The aggregate hash the store has once the patch is applied.
    static let after = "agg_tiles_hash_after_apply"
    /// Earlier spellings of `after` that older `mbtiles` versions wrote, in order of preference.
    static let olderAfter = ["agg_tiles_hash_in_diff", "agg_tiles_hash_in_patch"]
    /// The algorithm of the aggregate hash (absent means MD5).
    static let hashAlgorithm = "hash_algorithm"
    /// The tables that hold binary (bsdiff) patches instead of whole tiles.
    static let binaryPatchTables = ["bsdiffraw", "bsdiffrawgz"]

    /// Keys that are the patch's own bookkeeping, not metadata changes of the store.
    static let bookkeeping: Set<String> = Set([aggregateHash, before, after] + olderAfter)
}
