/// A store that tiles can be written to. Writes become visible all at once in `finish()`;
/// `abort()` (or dropping the writer unfinished) leaves the destination as it was.
///
/// Call order: `begin(metadata:)` once, then any number of `write(_:)`, then `finish()` or
/// `abort()`. Metadata comes first because a tar archive carries it as its first entry.
public protocol TileWriter: AnyObject {
    /// Where the store goes, as the user named it.
    var location: TileStoreLocation { get }

    /// Starts writing, recording the metadata the store will hold.
    /// - Throws: `TileStoreError` when the destination cannot be prepared.
    func begin(metadata: TileMetadata) throws

    /// Adds or replaces one tile (a repeated coordinate: the last write wins).
    /// - Parameters:
    ///   - hash: the MD5 of `tile.data` (stored by schemas that keep hashes).
    ///   - original: an earlier tile of this run with the same bytes, when the caller tracks
    ///     repeats; a deduplicating writer stores a reference to it instead of the bytes.
    /// - Throws: `TileStoreError` of kind `.io` when writing fails.
    func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws

    /// Makes everything written visible at the destination, atomically.
    /// - Throws: `TileStoreError` when committing fails; the destination is then unchanged.
    func finish() throws

    /// Drops everything written; the destination stays as it was. Never throws.
    func abort()
}

extension TileWriter {
    /// Adds or replaces one tile, hashing it here.
    public func write(_ tile: Tile) throws {
        try write(tile, hash: ContentHash(of: tile.data), duplicateOf: nil)
    }
}
