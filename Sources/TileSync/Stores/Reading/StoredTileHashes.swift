/// The per-tile hashes a store keeps (a column of its tables), for `verify`.
struct StoredTileHashes: Sendable, Equatable {
    /// What the store calls them, e.g. `tile_hash` or `tile_id`.
    let name: String
    /// True when they are MD5s of the bytes, so a mismatch is a fault `verify` reports; false for
    /// ids of another kind (TileMill's), which are not checked.
    let areMD5s: Bool
    /// What to tell the user when they are not checked.
    let note: String?

    /// A description of stored hashes.
    init(name: String, areMD5s: Bool, note: String? = nil) {
        self.name = name
        self.areMD5s = areMD5s
        self.note = note
    }
}
