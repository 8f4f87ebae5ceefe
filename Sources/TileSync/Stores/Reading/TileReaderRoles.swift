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

    init(downloadKeeping: (any DownloadKeepingReader)? = nil, rereadSource: TileRereadSource? = nil,
         storedHashes: (any StoredHashChecking)? = nil, joinableStores: JoinableStores? = nil) {
        self.downloadKeeping = downloadKeeping
        self.rereadSource = rereadSource
        self.storedHashes = storedHashes
        self.joinableStores = joinableStores
    }

    /// No role beyond reading.
    public static var none: TileReaderRoles { TileReaderRoles() }
}
