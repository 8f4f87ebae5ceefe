/// The optional roles a reader plays beyond reading, declared by the reader and asked by the
/// engines (never found by casting), as `TileWriterAbilities` does for writers. A reader
/// outside the library declares `.none`.
public struct TileReaderRoles {
    /// Keeps a tile server's downloads beside the destination between runs (validators, expiry,
    /// an unfinished download); nil for stores that are not downloaded tile by tile.
    let downloadKeeping: (any DownloadKeepingReader)?
    /// Reads tiles again by column from the version the reader streams, for writers that
    /// reread blobs at `finish()`; nil when the reader cannot.
    let rereadSource: TileRereadSource?
    /// The per-tile hashes the store keeps and their check; nil when it keeps none.
    let storedHashes: (any StoredHashChecking)?
    /// Whole stores this reader reads as one (a merge), which a writer may join without reading
    /// their tiles one by one; nil for a reader that is not such a merge.
    let joinableStores: JoinableStores?
    /// Several reads in one view of the store; nil when each read sees the store as it is.
    let consistentReads: (any ConsistentReading)?
    /// A check of the store's own structure; nil when it has none to check.
    let integrity: (any IntegrityChecking)?
    /// What a merge of many sources asks of a streamed source; nil when it says nothing.
    let mergeStreaming: (any MergeStreaming)?
    /// More to tell of the store (format details, content no destination carries, layout hints).
    let inspection: (any StoreInspection)?
    /// Long operations that stop early when asked.
    let cancellation: (any CancellableReading)?
    /// martin's `agg_tiles_hash` computed the store's own way.
    let aggregateHashing: (any AggregateHashing)?
    /// The UTFGrids kept beside the tiles.
    let grids: (any GridReading)?
    /// The tiles' compression as declared elsewhere than in the metadata.
    let compressionDeclaration: (any CompressionDeclaring)?
    /// Each tile in a file of its own, opened without being read.
    let tileFiles: (any TileFileOpening)?
    /// Only the wanted tiles streamed, fetched together; nil where `tile(at:)` is cheap.
    let selectiveStreaming: (any SelectiveStreaming)?

    init(downloadKeeping: (any DownloadKeepingReader)? = nil, rereadSource: TileRereadSource? = nil,
         storedHashes: (any StoredHashChecking)? = nil, joinableStores: JoinableStores? = nil,
         consistentReads: (any ConsistentReading)? = nil, integrity: (any IntegrityChecking)? = nil,
         mergeStreaming: (any MergeStreaming)? = nil, inspection: (any StoreInspection)? = nil,
         cancellation: (any CancellableReading)? = nil, aggregateHashing: (any AggregateHashing)? = nil,
         grids: (any GridReading)? = nil, compressionDeclaration: (any CompressionDeclaring)? = nil,
         tileFiles: (any TileFileOpening)? = nil, selectiveStreaming: (any SelectiveStreaming)? = nil) {
        self.downloadKeeping = downloadKeeping
        self.rereadSource = rereadSource
        self.storedHashes = storedHashes
        self.joinableStores = joinableStores
        self.consistentReads = consistentReads
        self.integrity = integrity
        self.mergeStreaming = mergeStreaming
        self.inspection = inspection
        self.cancellation = cancellation
        self.aggregateHashing = aggregateHashing
        self.grids = grids
        self.compressionDeclaration = compressionDeclaration
        self.tileFiles = tileFiles
        self.selectiveStreaming = selectiveStreaming
    }

    /// No role beyond reading.
    public static var none: TileReaderRoles { TileReaderRoles() }
}
