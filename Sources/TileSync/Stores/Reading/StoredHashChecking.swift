/// The role of a reader whose store keeps per-tile hashes (`TileReaderRoles.storedHashes`).
protocol StoredHashChecking: AnyObject {
    /// Which hashes the store keeps, and whether they are MD5s of the bytes; nil when it keeps none.
    var storedHashes: StoredTileHashes? { get }

    /// Calls `each` for every stored hash that is not the MD5 of its bytes.
    /// - Throws: `TileStoreError` when the store cannot be read.
    func storedHashMismatches(_ each: (StoredHashMismatch) -> Void) throws
}
