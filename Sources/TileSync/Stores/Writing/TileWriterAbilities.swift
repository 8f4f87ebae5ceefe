/// What a writer can do for a conversion beyond taking tiles, declared by the writer and asked by
/// the converter (never found by casting): find repeated blobs itself while it lays the store out
/// (so the converter counts none), and read the source's blobs again at `finish()` instead of
/// keeping them (given a source that can reread by column). A writer outside the library
/// declares `.none`.
public struct TileWriterAbilities {
    /// The counts of the run once it finished (nil before `finish()`); nil when the writer does
    /// not count repeats itself.
    let repeatCounts: (() -> BlobCounts?)?
    /// Hands the writer a rereading source before `begin`; nil when it rereads none.
    let rereadsBlobs: ((any TileColumnRereading) -> Void)?
    /// Prepares, instead of `begin`, to write whole stores joined by copying their stored bytes,
    /// with this metadata, and says what it will write; nil (nothing prepared) when they cannot
    /// be joined so, and the tiles are then streamed. nil when the writer joins no stores.
    let joinsStores: (([TileStoreLocation], TileMetadata) throws -> StoreJoinPlan?)?

    init(repeatCounts: (() -> BlobCounts?)?, rereadsBlobs: ((any TileColumnRereading) -> Void)?,
         joinsStores: (([TileStoreLocation], TileMetadata) throws -> StoreJoinPlan?)? = nil) {
        self.repeatCounts = repeatCounts
        self.rereadsBlobs = rereadsBlobs
        self.joinsStores = joinsStores
    }

    /// No ability beyond taking tiles.
    public static var none: TileWriterAbilities { TileWriterAbilities(repeatCounts: nil, rereadsBlobs: nil) }

    /// True when the writer finds repeats itself.
    var countsRepeats: Bool { repeatCounts != nil }
}
