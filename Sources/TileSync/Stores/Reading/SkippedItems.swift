/// A count of items a reader passed over, naming the first few with the reason.
public struct SkippedItems: Sendable, Equatable {
    /// How many names are kept; the count goes on past it.
    public static let namedLimit = 20

    /// All items passed over.
    public private(set) var count = 0
    /// `(item, reason)` for the first `namedLimit` items.
    public private(set) var named: [Item] = []

    /// One item passed over and why.
    public struct Item: Sendable, Equatable {
        /// The entry, file or tile.
        public let item: String
        /// Why it was passed over.
        public let reason: String
    }

    /// Nothing skipped yet.
    public init() {}

    /// Counts one more item, naming it while fewer than `namedLimit` are named.
    public mutating func record(_ item: String, reason: String) {
        count += 1
        if named.count < Self.namedLimit { named.append(Item(item: item, reason: reason)) }
    }

    /// These items and `other`'s together: counts added, names kept up to `namedLimit`.
    public func adding(_ other: SkippedItems) -> SkippedItems {
        var all = self
        all.count += other.count
        all.named += other.named.prefix(max(0, Self.namedLimit - all.named.count))
        return all
    }
}
