import Foundation
import Testing
@testable import TileSync

/// An index stream over entries held in memory, for the steps' tests.
final class ListedIndexCursor: TileIndexCursor {
    private var entries: [TileIndexEntry]
    var skipped = SkippedItems()

    init(_ entries: [TileIndexEntry]) {
        self.entries = entries.reversed()
    }

    func next() throws -> TileIndexEntry? { entries.popLast() }
}

@Suite("Sync steps: merge two indexes, sort one, keep the plan")
struct SyncStepTests {
    static func entry(_ text: String, size: Int = 1) throws -> TileIndexEntry {
        TileIndexEntry(coordinate: try TileCoordinate(parsing: text), size: size, hash: nil)
    }

    static func drain(_ cursor: any TileIndexCursor) throws -> [String] {
        var seen: [String] = []
        while let entry = try cursor.next() { seen.append("\(entry.coordinate) \(entry.size)") }
        return seen
    }

    @Test("The merge yields each coordinate once with both sides' entries, in the shared order")
    func merge() throws {
        let source = ListedIndexCursor(try ["0/0/0", "1/0/1", "1/1/0", "2/3/3"].map { try Self.entry($0) })
        let destination = ListedIndexCursor(try ["1/0/0", "1/1/0", "2/0/0", "2/3/3"].map { try Self.entry($0, size: 2) })
        let merge = TileIndexMerge(source: source, destination: destination, order: .zoomColumnRow)
        var pairs: [String] = []
        while let pair = try merge.next() {
            pairs.append("\(pair.coordinate) \(pair.source?.size ?? 0) \(pair.destination?.size ?? 0)")
        }
        #expect(pairs == ["0/0/0 1 0", "1/0/0 0 2", "1/0/1 1 0", "1/1/0 1 2", "2/0/0 0 2", "2/3/3 1 2"])
        #expect(try merge.next() == nil)
    }

    @Test("Two empty indexes merge to nothing; one empty side gives the other whole")
    func mergeEmpty() throws {
        #expect(try TileIndexMerge(source: ListedIndexCursor([]), destination: ListedIndexCursor([]), order: .tileID).next() == nil)
        let merge = TileIndexMerge(source: ListedIndexCursor([]), destination: ListedIndexCursor(try [Self.entry("3/1/1")]), order: .tileID)
        let pair = try merge.next()
        #expect(pair?.coordinate.description == "3/1/1" && pair?.source == nil && pair?.destination?.size == 1)
        #expect(try merge.next() == nil)
    }

    @Test("An unordered index is sorted on disk; a repeated coordinate keeps its last entry")
    func sortUnordered() throws {
        let unordered = ListedIndexCursor([try Self.entry("2/1/1", size: 1), try Self.entry("0/0/0", size: 2),
                                           try Self.entry("2/1/1", size: 3), try Self.entry("1/1/0", size: 4)])
        let sorted = try SortedTileIndex.sorted(unordered, from: .unordered, into: .zoomColumnRow, store: "memory", invalid: nil)
        #expect(try Self.drain(sorted) == ["0/0/0 2", "1/1/0 4", "2/1/1 3"])
    }

    @Test("An index that claims an order and breaks it is an error naming the store and the tiles")
    func brokenOrder() throws {
        let claimed = ListedIndexCursor([try Self.entry("1/1/0"), try Self.entry("0/0/0")])
        let checked = try SortedTileIndex.sorted(claimed, from: .zoomColumnRow, into: .zoomColumnRow, store: "claims.mbtiles", invalid: nil)
        let error = #expect(throws: TileStoreError.self) { _ = try checked.next() }
        #expect(error?.kind == .corrupt && error?.store == "claims.mbtiles")
        #expect(error?.item == "tile 0/0/0")
        #expect(error?.message == "comes after tile 1/1/0, out of the store's order")
    }

    @Test("The common order is the one an ordered store has, else zoom, column, row")
    func commonOrder() {
        #expect(SortedTileIndex.commonOrder(.tileID, .zoomColumnRow) == .tileID)
        #expect(SortedTileIndex.commonOrder(.unordered, .zoomColumnTMSRow) == .zoomColumnTMSRow)
        #expect(SortedTileIndex.commonOrder(.unordered, .unordered) == .zoomColumnRow)
    }

    @Test("The plan table keeps the merge's order, answers by coordinate, and lists actions by coordinate")
    func planTable() throws {
        let plan = try SyncPlanTable()
        try plan.add(try TileCoordinate(parsing: "2/1/1"), action: .add, size: 10, sourceModificationTime: 5)
        try plan.add(try TileCoordinate(parsing: "0/0/0"), action: .delete, size: 0, sourceModificationTime: nil)
        try plan.add(try TileCoordinate(parsing: "1/0/1"), action: .replace, size: 7, sourceModificationTime: -3)
        #expect(plan.count == 3)
        let found = try plan.row(at: try TileCoordinate(parsing: "1/0/1"))
        #expect(found?.action == .replace && found?.size == 7 && found?.sourceModificationTime == -3)
        #expect(try plan.row(at: try TileCoordinate(parsing: "1/1/1")) == nil)
        var inPlanOrder: [String] = []
        try plan.rowsInPlanOrder { inPlanOrder.append("\($0.action.rawValue) \($0.coordinate)") }
        #expect(inPlanOrder == ["add 2/1/1", "delete 0/0/0", "replace 1/0/1"])
        var writes: [String] = []
        try plan.rows([.add, .replace]) { writes.append("\($0.coordinate)") }
        #expect(writes == ["1/0/1", "2/1/1"])
    }
}
