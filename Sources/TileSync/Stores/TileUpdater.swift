/// A store changed in place by a sync: tiles put and removed, then committed together.
///
/// Call order: `begin(metadata:)`, any `put`/`remove`, then `finish()` or `abort()`. Each
/// adapter makes the commit as atomic as its container allows and documents how (a transaction,
/// a journal that the next run completes, a rewritten file renamed into place).
public protocol TileUpdater: AnyObject {
    var location: TileStoreLocation { get }

    /// Starts a change, replacing the store's metadata with `metadata`.
    func begin(metadata: TileMetadata) throws

    /// Adds or replaces a tile.
    /// - Parameter modificationTime: for stores with a file per tile, the time to give the file
    ///   (ns since 1970), so a later quick check sees it unchanged; ignored by other stores.
    func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws

    /// Removes the tile at a coordinate (nothing when there is none).
    func remove(_ coordinate: TileCoordinate) throws

    /// Commits every change.
    func finish() throws

    /// Drops every change; the store stays as it was.
    func abort()
}
