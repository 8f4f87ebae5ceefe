/// The metadata a sync writes, and whether it differs from the destination's.
enum SyncMetadata {
    /// Keys that stores manage themselves: not a difference between two stores.
    static let ignoredKeys: Set<String> = TileTreeOptions.metadataKeys.union(["agg_tiles_hash"])

    /// The source's metadata as the destination gets it (`PreparedMetadata`), from the first
    /// valid source tile's bytes; every part of a sharded sync writes the metadata of the whole.
    static func prepare(_ context: SyncContext) throws -> PreparedMetadata {
        if let rewriting = context.rewritingSource {
            return try PreparedMetadata.prepare(rewriting, metadata: try rewriting.metadata(), filter: context.options.filter.withoutShard,
                                                sniffed: try rewriting.firstTileFormat(matching: context.options.filter))
        }
        return try prepare(context.sourceReader, filter: context.options.filter)
    }

    /// A reader's metadata as a sync within `filter` would write it into another store.
    /// The first tile's bytes are those a tile server's download keeps at hand, where it does
    /// (a request would ask again for a tile that is still fresh); a reader that fetches by
    /// request (a remote PMTiles) reads the first listed tile alone rather than a stream's first
    /// batch.
    static func prepare(_ reader: any TileReader, filter: TileFilter) throws -> PreparedMetadata {
        var first = reader.roles.downloadKeeping?.sampleTile
        if first == nil, reader.roles.selectiveStreaming != nil, let entry = try reader.listing(matching: filter).next() {
            first = try? reader.tile(at: entry.coordinate)
        }
        if first == nil {
            var ignored = SkippedItems()
            first = try TileConverter.nextTile(try reader.tiles(matching: filter), skipInvalid: true, invalidTiles: &ignored)?.data
        }
        let metadata = try reader.metadata(), declared = try reader.declaredTileCompression()
        return try PreparedMetadata.prepare(reader, metadata: metadata, filter: filter.withoutShard, sniffed: first.map {
            SniffedTileFormat(sniffing: $0, declaredCompression: declared, declaredFormat: metadata.format)
        })
    }

    /// True when `metadata`, as a store of `kind` would hold it, differs from `current` in a key
    /// stores do not manage themselves. Key order is no difference (stores keep a table of keys).
    static func differs(_ metadata: TileMetadata, from current: TileMetadata, in kind: any TileStoreKind) -> Bool {
        func table(_ metadata: TileMetadata) -> [String: String?] {
            Dictionary(metadata.entries.filter { !ignoredKeys.contains($0.key) }.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        }
        return table(kind.storedMetadata(metadata)) != table(current)
    }

    /// The keys whose value differs between the base's metadata and the target's as the base's
    /// kind would store it, with the target's value (NULL for a key only the base has), as a
    /// patch records them; keys stores manage themselves and a patch's bookkeeping are left out.
    static func patchChanges(from base: TileMetadata, to target: TileMetadata, in kind: any TileStoreKind) -> TileMetadata {
        let ignored = ignoredKeys.union(PatchMetadataKeys.bookkeeping)
        let stored = kind.storedMetadata(target)
        var changes = TileMetadata()
        for entry in stored where !ignored.contains(entry.key) {
            if let value = entry.value {
                if !base.contains(entry.key) || base[entry.key] != value { changes[entry.key] = value }
            } else if base[entry.key] != nil {
                changes.setNull(entry.key)
            }
        }
        for entry in base where !ignored.contains(entry.key) && !stored.contains(entry.key) {
            changes.setNull(entry.key)
        }
        return changes
    }
}
