/// The metadata a sync writes, and whether it differs from the destination's.
enum SyncMetadata {
    /// Keys that stores manage themselves: not a difference between two stores.
    static let ignoredKeys: Set<String> = ["scheme", "agg_tiles_hash"]

    /// The source's metadata as the destination gets it (`PreparedMetadata`), from the first
    /// valid source tile's bytes.
    static func prepare(_ context: SyncContext) throws -> PreparedMetadata {
        let cursor = try context.sourceReader.tiles(matching: context.options.filter)
        var ignored = SkippedItems()
        let first = try TileConverter.nextTile(cursor, skipInvalid: true, invalidTiles: &ignored)
        return try PreparedMetadata.prepare(context.sourceReader, metadata: try context.sourceReader.metadata(),
                                            filter: context.options.filter, sniffed: first.map { SniffedTileFormat(sniffing: $0.data) })
    }

    /// True when the two differ in a key stores do not manage themselves.
    static func differs(_ metadata: TileMetadata, from current: TileMetadata) -> Bool {
        metadata.entries.filter { !ignoredKeys.contains($0.key) } != current.entries.filter { !ignoredKeys.contains($0.key) }
    }
}
