import Foundation
import Testing
@testable import TileSync

@Suite("A merge follows a source that wins many coordinates in a row alone; the others count and pass over what it shadowed, as a walk coordinate by coordinate would")
struct ShadowedRunMergeTests {
    /// Zooms 6 and 7 in the MBTiles index's order: position 0 is 6/0/63 (TMS row 0), 4096 is
    /// 7/0/127.
    static func coordinate(at position: Int) throws -> TileCoordinate {
        let z = position < 4096 ? 6 : 7
        let within = position < 4096 ? position : position - 4096
        return try TileCoordinate(z: z, x: within >> z, tmsY: within & ((1 << z) - 1))
    }

    /// A source's positions: a few long stretches (some longer than the part of a run passed
    /// over in the background) and a few short ones, drawn from `generator`.
    static func positions(_ generator: inout SplitMix64) -> Set<Int> {
        var positions = Set<Int>()
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let start = Int.random(in: 0..<9000, using: &generator)
            positions.formUnion(start..<min(start + Int.random(in: 100...12000, using: &generator), 4096 + 16384))
        }
        for _ in 0..<Int.random(in: 0...20, using: &generator) {
            let start = Int.random(in: 0..<9000, using: &generator)
            positions.formUnion(start..<start + Int.random(in: 1...40, using: &generator))
        }
        return positions
    }

    /// What a merge must give: each position's winner, and the tally's counts.
    struct Expected {
        var tiles: [TileCoordinate: Data] = [:]
        var given: [Int]
        var heldBySeveral = 0
    }

    static func expected(_ sources: [Set<Int>], names: [String], policy: MergedStoreKind.DuplicatePolicy,
                         zooms: ClosedRange<Int> = 6...7) throws -> Expected {
        var expected = Expected(given: Array(repeating: 0, count: sources.count))
        for position in sources.reduce(Set<Int>(), { $0.union($1) }) {
            let coordinate = try coordinate(at: position)
            guard zooms.contains(coordinate.z) else { continue }
            let holders = sources.indices.filter { sources[$0].contains(position) }
            guard let winner = policy == .override ? holders.last : holders.first else { continue }
            expected.tiles[coordinate] = GeneratedStore.bytes(for: coordinate, salt: names[winner])
            expected.given[winner] += 1
            if holders.count > 1 { expected.heldBySeveral += 1 }
        }
        return expected
    }

    static func write(_ positions: Set<Int>, name: String, in directory: TemporaryDirectory, schema: MBTilesSchema = .flat) throws -> TileStoreLocation {
        let tiles = try positions.sorted().map { position in
            let coordinate = try coordinate(at: position)
            return Tile(coordinate: coordinate, data: GeneratedStore.bytes(for: coordinate, salt: name))
        }
        let path = directory.file("\(name).mbtiles")
        try GeneratedStore.write(tiles, to: path, mbtilesSchema: schema)
        return TileStoreLocation(kind: .mbtiles, address: path)
    }

    @Test("Drawn overlapping sources (three to five, one normalized), ignore and override, all zooms or zoom 7 only: the tiles and counts of the oracle, with runs followed alone",
          arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func drawnSources(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        var generator = SplitMix64(seed: seed)
        let count = Int.random(in: 3...5, using: &generator)
        let names = (0..<count).map { "s\($0)" }
        let positions = (0..<count).map { _ in Self.positions(&generator) }
        let sources = try names.indices.map { index in
            try Self.write(positions[index], name: names[index], in: directory, schema: index == 1 ? .normalized : .flat)
        }
        var followed = 0
        for policy in [MergedStoreKind.DuplicatePolicy.ignore, .override] {
            for zooms in [6...7, 7...7] {
                let expected = try Self.expected(positions, names: names, policy: policy, zooms: zooms)
                let merged = TileStoreLocation.merging(sources, onDuplicate: policy)
                let destination = directory.file("\(policy.rawValue)-\(zooms.lowerBound).mbtiles")
                var options = TileConverter.Options()
                options.filter = try TileFilter(minZoom: zooms.lowerBound, maxZoom: zooms.upperBound)
                let summary = try TileConverter.convert(from: merged, to: TileStoreLocation(kind: .mbtiles, address: destination), options: options)
                #expect(summary.tilesWritten == expected.tiles.count, "seed \(seed) \(policy) \(zooms)")
                #expect(try StoreContents.tiles(destination) == expected.tiles, "seed \(seed) \(policy) \(zooms)")
                let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
                #expect(tally.tilesGiven == expected.given, "seed \(seed) \(policy) \(zooms)")
                #expect(tally.decidedUncompared == expected.heldBySeveral && tally.decidedByPolicy == 0 && tally.heldAlike == 0,
                        "seed \(seed) \(policy) \(zooms)")
                followed += tally.followedAlone
            }
        }
        #expect(followed > 1000, "seed \(seed): runs were followed alone")
    }

    /// `a` and `b` both hold positions 0..<count (zoom 6 and the start of 7, or both zooms).
    static func twoOverlapping(_ directory: TemporaryDirectory, count: Int) throws -> [TileStoreLocation] {
        try ["a", "b"].map { try Self.write(Set(0..<count), name: $0, in: directory) }
    }

    /// A row of `b` that is no tile, in place of one it lacks: in a short run (3,000), or in the
    /// last of the parts of a long run that the losers pass over while the merge goes on (20,480).
    static let brokenRows = [(count: 3000, lacking: (z: 6, x: 20, row: 10), broken: (z: 6, x: 20, row: 64)),
                             (count: 20480, lacking: (z: 7, x: 120, row: 3), broken: (z: 7, x: 120, row: 128))]

    @Test("A losing source's row that is no tile (in place of one it lacks) inside a followed run stops the merge naming it, as the walk does; --skip-invalid counts it and merges the rest",
          arguments: brokenRows.indices)
    func invalidLoserRow(case index: Int) throws {
        let (count, lacking, broken) = Self.brokenRows[index]
        let directory = try TemporaryDirectory()
        let sources = try Self.twoOverlapping(directory, count: count)
        try SQLiteConnection(path: sources[1].address, mode: .readWrite)
            .execute("DELETE FROM tiles WHERE zoom_level = \(lacking.z) AND tile_column = \(lacking.x) AND tile_row = \(lacking.row);"
                + " INSERT INTO tiles VALUES (\(broken.z), \(broken.x), \(broken.row), x'00')")
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("merged.mbtiles"))
        #expect(throws: TileStoreError(.invalidTile, store: sources[1].address,
                                       item: "tile zoom_level \(broken.z), tile_column \(broken.x), tile_row \(broken.row)",
                                       message: "TMS row \(broken.row) is out of range at zoom \(broken.z) (0...\((1 << broken.z) - 1))")) {
            try TileConverter.convert(from: TileStoreLocation.merging(sources, onDuplicate: .ignore), to: destination)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.address))
        var options = TileConverter.Options()
        options.skipInvalid = true
        let merged = TileStoreLocation.merging(sources, onDuplicate: .ignore)
        let summary = try TileConverter.convert(from: merged, to: destination, options: options)
        #expect(summary.tilesWritten == count && summary.invalidTiles.count == 1)
        #expect(try StoreComparison.compare(sources[0], destination).isIdentical)
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(tally.tilesGiven == [count, 0] && tally.decidedUncompared == count - 1, "b lacks one coordinate")
        #expect(tally.followedAlone > count * 2 / 3)
    }

    @Test("Untyped coordinate columns keep 20.0 as a REAL: a loser's row holding it inside a followed run is reported as the walk reports it; declared INTEGER columns store it as 20")
    func untypedColumns() throws {
        let directory = try TemporaryDirectory()
        let sources = try Self.twoOverlapping(directory, count: 3000)
        let untyped = try SQLiteConnection(path: sources[1].address, mode: .readWrite)
        try untyped.execute("CREATE TABLE loose (zoom_level, tile_column, tile_row, tile_data); INSERT INTO loose SELECT * FROM tiles;"
            + " DROP TABLE tiles; ALTER TABLE loose RENAME TO tiles; CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);"
            + " UPDATE tiles SET tile_column = 20.0 WHERE zoom_level = 6 AND tile_column = 20 AND tile_row = 10")
        let typed = try SQLiteConnection(path: sources[0].address, mode: .readWrite)
        try typed.execute("UPDATE tiles SET tile_column = 20.0 WHERE zoom_level = 6 AND tile_column = 20 AND tile_row = 10")
        #expect(try typed.rows("SELECT typeof(tile_column) FROM tiles WHERE zoom_level = 6 AND tile_row = 10 AND tile_column = 20") == [["integer"]])
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("merged.mbtiles"))
        #expect(throws: TileStoreError(.invalidTile, store: sources[1].address, item: "row (zoom_level 6, tile_column 20.0, tile_row 10)",
                                       message: "tile_column is '20.0', not an integer")) {
            try TileConverter.convert(from: TileStoreLocation.merging(sources, onDuplicate: .ignore), to: destination)
        }
        var options = TileConverter.Options()
        options.skipInvalid = true
        let merged = TileStoreLocation.merging(sources, onDuplicate: .ignore)
        let summary = try TileConverter.convert(from: merged, to: destination, options: options)
        #expect(summary.tilesWritten == 3000 && summary.invalidTiles.count == 1)
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(tally.tilesGiven == [3000, 0] && tally.decidedUncompared == 2999)
    }

    @Test("A winner's invalid tile inside a followed run (short, or past the parts passed over meanwhile) gives way to the loser holding it with --skip-invalid; without, it stops the merge",
          arguments: [(3000, 2000), (20480, 19000)])
    func invalidWinnerInRun(count: Int, position: Int) throws {
        let directory = try TemporaryDirectory()
        let sources = try Self.twoOverlapping(directory, count: count)
        let nulled = try Self.coordinate(at: position)
        try SQLiteConnection(path: sources[0].address, mode: .readWrite)
            .execute("UPDATE tiles SET tile_data = NULL WHERE zoom_level = \(nulled.z) AND tile_column = \(nulled.x) AND tile_row = \(nulled.tmsY)")
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("merged.mbtiles"))
        let (summary, tally) = try WinnersOnlyMergeTests.mergeWithNulledWinner(sources, nulled: nulled, into: destination)
        #expect(summary.tilesWritten == count && summary.invalidTiles.count == 1)
        let tiles = try StoreContents.tiles(destination.address)
        #expect(tiles[nulled] == GeneratedStore.bytes(for: nulled, salt: "b"))
        let after = try Self.coordinate(at: position + 1)
        #expect(tiles[after] == GeneratedStore.bytes(for: after, salt: "a"))
        #expect(tally.tilesGiven == [count - 1, 1] && tally.decidedUncompared == count - 1, "the nulled coordinate counts as held by b alone")
        #expect(tally.followedAlone > count * 2 / 3)
    }
}
