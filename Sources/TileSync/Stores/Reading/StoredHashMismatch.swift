/// A stored hash that is not the MD5 of its bytes.
public struct StoredHashMismatch: Sendable, Equatable {
    /// The tile or row, e.g. `tile 3/2/5 (TMS row)` or `image 'AB12...'`.
    public let item: String
    /// The stored value as text.
    public let stored: String
    /// The MD5 of the bytes.
    public let actual: ContentHash

    /// A mismatch.
    public init(item: String, stored: String, actual: ContentHash) {
        self.item = item
        self.stored = stored
        self.actual = actual
    }
}
