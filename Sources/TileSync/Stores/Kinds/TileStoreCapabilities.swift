/// What the stores of a kind can do, declared once by the kind and asked by the engines instead
/// of the kind's name. A reader, writer or updater reports what an opened store really does
/// (an MBTiles without an index is unordered, a flat schema keeps no hashes).
public struct TileStoreCapabilities: Sendable, Equatable {
    /// The order readers stream in when the store is laid out the usual way.
    public var nativeOrder: TileOrder
    /// `tile(at:)` is a lookup, not a scan.
    public var hasCheapRandomAccess: Bool
    /// What a listing knows of each tile without reading it.
    public var listing: TileStoreCapabilities.ListingFields
    /// Some of its layouts keep an MD5 per tile.
    public var canStoreHashes: Bool
    /// How a sync changes it.
    public var updates: TileStoreCapabilities.UpdateStyle
    /// How it can keep repeated blobs once.
    public var deduplication: TileStoreCapabilities.Deduplication
    /// The order its writers are fastest in.
    public var preferredWriteOrder: TileOrder
    /// Its writers and updaters keep martin's `agg_tiles_hash` in the metadata up to date.
    public var maintainsAggregateHash: Bool
    /// A store is one local file with cheap random access that can be written: fit for a private
    /// scratch copy (how `TileSource` serves a store without random access).
    public var isLocalIndexFile: Bool
    /// Its stores keep UTFGrids beside the tiles (MBTiles `grids`, `.grid.json` files).
    public var keepsGrids: Bool
    /// Its stores can be written and changed (false: a source only, such as a tile server).
    public var isWritable: Bool
    /// A store is one file that clients read by byte ranges themselves (a PMTiles archive), so a
    /// server may send the file as it is.
    public var isRangeReadArchive: Bool
    /// The endings of the names its files are given (`.mbtiles`), which a store's display name
    /// leaves out; none for kinds whose stores are not files named so.
    public var fileSuffixes: [String]

    /// Capabilities; every one must be stated but `isWritable` (true unless said),
    /// `isRangeReadArchive` (false) and `fileSuffixes` (none).
    public init(nativeOrder: TileOrder, hasCheapRandomAccess: Bool, listing: TileStoreCapabilities.ListingFields, canStoreHashes: Bool,
                updates: TileStoreCapabilities.UpdateStyle, deduplication: TileStoreCapabilities.Deduplication, preferredWriteOrder: TileOrder,
                maintainsAggregateHash: Bool, isLocalIndexFile: Bool, keepsGrids: Bool, isWritable: Bool = true,
                isRangeReadArchive: Bool = false, fileSuffixes: [String] = []) {
        self.keepsGrids = keepsGrids
        self.isWritable = isWritable
        self.isRangeReadArchive = isRangeReadArchive
        self.fileSuffixes = fileSuffixes
        self.nativeOrder = nativeOrder
        self.hasCheapRandomAccess = hasCheapRandomAccess
        self.listing = listing
        self.canStoreHashes = canStoreHashes
        self.updates = updates
        self.deduplication = deduplication
        self.preferredWriteOrder = preferredWriteOrder
        self.maintainsAggregateHash = maintainsAggregateHash
        self.isLocalIndexFile = isLocalIndexFile
    }
}
