import Foundation

/// `verify A B`: whether two stores of any kind hold the same tiles (coordinates and bytes),
/// by merging their hash indexes in a common order; stored hashes are used where verified.
/// When both kinds keep UTFGrids, their grids are compared too (`UTFGridComparison`).
public struct StoreComparison: Sendable {
    /// How many differences are kept in full.
    public static let keptDifferences = 20

    /// The first store (the reference).
    public let first: TileStoreLocation
    /// The second store.
    public let second: TileStoreLocation
    /// Coordinates both stores hold with the same bytes.
    public internal(set) var same = 0
    /// Coordinates only the first store holds.
    public internal(set) var onlyInFirst = 0
    /// Coordinates only the second store holds.
    public internal(set) var onlyInSecond = 0
    /// Coordinates both hold with different bytes.
    public internal(set) var different = 0
    /// The first differences in index order.
    public internal(set) var differences: [TileIndexPair] = []
    /// Invalid tiles met on either side (they count as absent there).
    public internal(set) var invalid = SkippedItems()

    /// UTFGrids both hold alike (counted only when both kinds keep grids).
    public internal(set) var gridsSame = 0
    /// UTFGrids only the first store holds.
    public internal(set) var gridsOnlyInFirst = 0
    /// UTFGrids only the second store holds.
    public internal(set) var gridsOnlyInSecond = 0
    /// UTFGrids both hold, differently.
    public internal(set) var gridsDifferent = 0

    /// True when both stores hold the same coordinates with the same bytes, and the same grids.
    public var isIdentical: Bool {
        onlyInFirst == 0 && onlyInSecond == 0 && different == 0 && gridsOnlyInFirst == 0 && gridsOnlyInSecond == 0 && gridsDifferent == 0
    }

    /// True when either store holds a grid that was compared.
    public var involvesGrids: Bool { gridsSame + gridsOnlyInFirst + gridsOnlyInSecond + gridsDifferent > 0 }

    /// - Parameter limits: a store that says it holds more than `limits.maxTiles` tiles within
    ///   the filter is refused (`.limitExceeded`) before either is listed.
    /// - Throws: `TileStoreError` when either store cannot be read.
    public static func compare(_ first: TileStoreLocation, _ second: TileStoreLocation,
                               filter: TileFilter = .all, limits: TileAmountLimits = TileAmountLimits()) throws -> StoreComparison {
        do {
            return try run(first, second, filter: filter, limits: limits)
        } catch {
            throw TileStoreError(wrapping: error, store: second.address)
        }
    }

    private static func run(_ first: TileStoreLocation, _ second: TileStoreLocation, filter: TileFilter,
                            limits: TileAmountLimits) throws -> StoreComparison {
        let a = try first.openReader()
        let b = try second.openReader()
        for reader in [a, b] { _ = try TileAmountCheck.count(reader, filter: filter, limits: limits) }
        let order = SortedTileIndex.commonOrder(a.order, b.order)
        var result = StoreComparison(first: first, second: second)
        let invalid = InvalidCollector()
        let merge = TileIndexMerge(
            source: try SortedTileIndex.cursor(of: a, matching: filter, order: order, invalid: invalid.record),
            destination: try SortedTileIndex.cursor(of: b, matching: filter, order: order, invalid: invalid.record),
            order: order)
        while let pair = try merge.next() {
            if pair.isSame {
                result.same += 1
                continue
            }
            switch (pair.source, pair.destination) {
            case (_?, nil): result.onlyInFirst += 1
            case (nil, _?): result.onlyInSecond += 1
            default: result.different += 1
            }
            if result.differences.count < keptDifferences { result.differences.append(pair) }
        }
        var items = invalid.items
        if first.kind.capabilities.keepsGrids, second.kind.capabilities.keepsGrids {
            let firstGrids = try a.grids(matching: filter), secondGrids = try b.grids(matching: filter)
            if firstGrids != nil || secondGrids != nil {
                let grids = try UTFGridComparison(source: firstGrids, destination: secondGrids, store: second.address, skipInvalid: true)
                result.gridsSame = grids.unchanged
                result.gridsOnlyInFirst = grids.added
                result.gridsOnlyInSecond = grids.onlyInDestination
                result.gridsDifferent = grids.replaced
                for item in grids.invalid.named { items.record(item.item, reason: item.reason) }
            }
        }
        result.invalid = items
        return result
    }
}
