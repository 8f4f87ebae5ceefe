/// A count of items a reader passed over, naming the first few with the reason.
public struct SkippedItems: Sendable, Equatable {
    /// How many names are kept; the count goes on past it.
    public static let namedLimit = 20

    public private(set) var count = 0
    /// `(item, reason)` for the first `namedLimit` items.
    public private(set) var named: [Item] = []

    public struct Item: Sendable, Equatable {
        public let item: String
        public let reason: String
    }

    public init() {}

    public mutating func record(_ item: String, reason: String) {
        count += 1
        if named.count < Self.namedLimit { named.append(Item(item: item, reason: reason)) }
    }
}
