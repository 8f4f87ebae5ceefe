/// Reads and edits the metadata of a store of any kind, leaving its tiles untouched (martin's
/// `meta-get`/`meta-set`, `pmtiles edit`): an MBTiles changes its `metadata` table in one
/// transaction, a folder rewrites `metadata.json` through its journal, a tar or PMTiles archive
/// is rewritten and renamed, an `s3://` prefix gets a new `metadata.json`.
public enum TileMetadataEditor {
    /// Keys a store manages itself, which an edit refuses: `agg_tiles_hash` is computed from the
    /// tiles, `scheme` and `layout` say how a folder's or tar's paths are read.
    public static let managedKeys: Set<String> = TileTreeOptions.metadataKeys.union(["agg_tiles_hash"])

    /// The store's metadata.
    /// - Throws: `TileStoreError` when the store cannot be read.
    public static func metadata(of store: TileStoreLocation) throws -> TileMetadata {
        try store.openReader().metadata()
    }

    /// Sets and removes keys in one commit; nothing is written when nothing changes.
    /// - Parameters:
    ///   - setting: keys and their new values, in order (a later one for the same key wins).
    ///   - removing: keys to remove; each must be present.
    /// - Returns: the metadata before and after.
    /// - Throws: `TileStoreError` `.invalidMetadata` for a managed key, a key set and removed at
    ///   once, or a key to remove that is absent (nothing is changed then); `.unsupported` for a
    ///   store that cannot be changed (an `http://` archive); write errors.
    public static func edit(_ store: TileStoreLocation, setting: [(key: String, value: String)] = [],
                            removing: [String] = []) throws -> (before: TileMetadata, after: TileMetadata) {
        do {
            for key in setting.map(\.key) + removing where managedKeys.contains(key) {
                throw TileStoreError(.invalidMetadata, store: store.address, item: "metadata \(key)",
                                     message: TileTreeOptions.metadataKeys.contains(key) ? "says how the tiles' paths are read and cannot be edited"
                                         : "is computed from the tiles and cannot be edited",
                                     hint: TileTreeOptions.metadataKeys.contains(key) ? "convert with --scheme or --layout to change how they are laid out"
                                         : "`tilesync verify --fix` rewrites it")
            }
            if let both = removing.first(where: { key in setting.contains { $0.key == key } }) {
                throw TileStoreError(.invalidMetadata, store: store.address, item: "metadata \(both)", message: "is both set and removed")
            }
            let resource = store.resource
            resource.removeStaleTemporaries()
            try resource.recoverInterruptedUpdate()
            let before = try metadata(of: store)
            if let absent = removing.first(where: { !before.contains($0) }) {
                throw TileStoreError(.invalidMetadata, store: store.address, item: "metadata \(absent)",
                                     message: "no such key; nothing was changed")
            }
            var after = before
            for (key, value) in setting { after[key] = value }
            for key in removing { after[key] = nil }
            if after != before { try store.makeUpdater().replaceMetadata(after) }
            return (before, after)
        } catch {
            throw TileStoreError(wrapping: error, store: store.address)
        }
    }
}
