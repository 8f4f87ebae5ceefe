import Foundation
import Testing
@testable import TileSync

@Suite("Sync, step by step: the planner decides every coordinate, the applier carries out the plan")
struct SyncPlanApplyTests {
    /// A source holding 1/0/0 `same`, 1/1/0 `new` and 1/1/1 `changed`; a destination holding
    /// 1/0/0 `same`, 1/1/1 `old one` (another size) and 1/0/1 `gone`.
    private static func stores(in directory: TemporaryDirectory) throws -> (TileStoreLocation, TileStoreLocation) {
        func tile(_ text: String, _ bytes: String) throws -> Tile { Tile(coordinate: try TileCoordinate(parsing: text), data: Data(bytes.utf8)) }
        try GeneratedStore.write([tile("1/0/0", "same"), tile("1/1/0", "new"), tile("1/1/1", "changed")], to: directory.file("a.mbtiles"))
        try GeneratedStore.write([tile("1/0/0", "same"), tile("1/1/1", "old one"), tile("1/0/1", "gone")], to: directory.file("b.mbtiles"))
        return (try TileStoreLocation(parsing: directory.file("a.mbtiles")), try TileStoreLocation(parsing: directory.file("b.mbtiles")))
    }

    private static func plan(_ source: TileStoreLocation, _ destination: TileStoreLocation,
                              delete: Bool) throws -> (SyncPlanner, TileSynchronizer.Summary, [String]) {
        var options = TileSynchronizer.Options()
        options.delete = delete
        let context = try SyncContext(source: source, destination: destination, options: options, sourceReader: try source.openReader())
        var heard: [String] = []
        let planner = try SyncPlanner(context: context, each: { heard.append("\($0.action) \($0.coordinate) \($0.size)") })
        let summary = try planner.makePlan()
        return (planner, summary, heard)
    }

    @Test("The plan: each change told in the merge's order (zoom, column, TMS row for two MBTiles), unchanged tiles only counted")
    func planning() throws {
        let directory = try TemporaryDirectory()
        let (source, destination) = try Self.stores(in: directory)
        let (_, summary, heard) = try Self.plan(source, destination, delete: true)
        #expect(heard == ["delete 1/0/1 4", "replace 1/1/1 7", "add 1/1/0 3"])
        let counts: [Int] = [summary.added, summary.replaced, summary.deleted, summary.unchanged]
        #expect(counts == [1, 1, 1, 1])
        let keeping = try Self.plan(source, destination, delete: false)
        #expect(keeping.2 == ["replace 1/1/1 7", "add 1/1/0 3"])
        #expect(keeping.1.deleted == 0 && keeping.1.bytesToDelete == 0)
        #expect(try StoreContents.tiles(destination.address).count == 3)
    }

    @Test("Applying the plan makes the destination hold exactly the source's tiles")
    func applying() throws {
        let directory = try TemporaryDirectory()
        let (source, destination) = try Self.stores(in: directory)
        let before = try StoreContents.tiles(destination.address)
        let (planner, _, _) = try Self.plan(source, destination, delete: true)
        let applier = SyncApplier(context: try SyncContext(source: source, destination: destination, options: TileSynchronizer.Options(),
                                                           sourceReader: try source.openReader()),
                                  plan: planner.plan, nextState: nil)
        try applier.apply(metadata: try source.openReader().metadata(), format: SniffedTileFormat(sniffing: Data("same".utf8)))
        #expect(try StoreContents.tiles(destination.address) == StoreContents.tiles(source.address))
        #expect(try StoreContents.tiles(destination.address) != before)
    }
}
