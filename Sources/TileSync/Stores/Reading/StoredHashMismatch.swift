/// A stored hash that is not the MD5 of its bytes.
struct StoredHashMismatch: Sendable, Equatable {
    /// The tile or row, e.g. `tile 3/2/5 (TMS row)` or `image 'AB12...'`.
    let item: String
    /// The stored value as text.
    let stored: String
    /// The MD5 of the bytes.
    let actual: ContentHash

    /// A mismatch.
    init(item: String, stored: String, actual: ContentHash) {
        self.item = item
        self.stored = stored
        self.actual = actual
    }
}
