import Foundation
import Testing
@testable import TileSync

@Suite("Merging more sources than may be open at once: groups merged into scratch runs first, with the result of one merge", .serialized)
struct GroupedMergeTests {
    /// `count` overlapping stores of zooms 0-3 in turns of MBTiles, folder and PMTiles. Source
    /// `i` holds a coordinate unless `(x + 2y + i) % 4 == 0`; its bytes are shared by every
    /// source, or its own when `(3x + y + i) % 5 == 0`, one byte longer when also `i` is odd.
    static func overlappingSources(_ stores: KindStores, count: Int, kinds: [String] = ["mbtiles", "dir", "pmtiles"]) throws -> [TileStoreLocation] {
        try (0..<count).map { source in
            let tiles = GeneratedStore.pyramid(maxZoom: 3).compactMap { tile -> Tile? in
                let c = tile.coordinate
                guard (c.x + 2 * c.y + source) % 4 != 0 else { return nil }
                guard (3 * c.x + c.y + source) % 5 == 0 else { return tile }
                return Tile(coordinate: c, data: GeneratedStore.bytes(for: c, salt: source % 2 == 1 ? "own \(source)" : "\(source)"))
            }
            return try stores.write(tiles, kind: kinds[source % kinds.count], name: "source\(source)")
        }
    }

    static func merged(_ sources: [TileStoreLocation], _ policy: MergedStoreKind.DuplicatePolicy, openLimit: Int,
                       comparing: Bool = false) -> MergedStoreKind {
        var kind = MergedStoreKind(sources: sources, policy: policy, comparesDuplicates: comparing)
        kind.openLimit = openLimit
        return kind
    }

    /// Every tile of the merge's stream, in its order, and its tally.
    static func stream(_ kind: MergedStoreKind, filter: TileFilter = .all) throws -> (tiles: [Tile], tally: [Int], alike: Int, decided: Int, unread: Int) {
        let cursor = try kind.location.openReader().tiles(matching: filter)
        var tiles: [Tile] = []
        while let tile = try cursor.next() { tiles.append(tile) }
        let tally = try #require(kind.tally)
        return (tiles, tally.tilesGiven, tally.heldAlike, tally.decidedByPolicy, tally.decidedUncompared)
    }

    @Test("ignore and override: 7 sources of three kinds in groups of 2 (two levels of runs) or 3 stream the same tiles and counts as one merge",
          arguments: [MergedStoreKind.DuplicatePolicy.ignore, .override], [2, 3])
    func sameAsOneMerge(policy: MergedStoreKind.DuplicatePolicy, openLimit: Int) throws {
        let stores = try KindStores()
        let sources = try Self.overlappingSources(stores, count: 7)
        for comparing in [false, true] {
            let flat = try Self.stream(Self.merged(sources, policy, openLimit: 32, comparing: comparing))
            let grouped = try Self.stream(Self.merged(sources, policy, openLimit: openLimit, comparing: comparing))
            #expect(flat.tiles.count == 85)
            #expect(grouped.tiles.map(\.coordinate) == flat.tiles.map(\.coordinate))
            #expect(grouped.tiles.map(\.data) == flat.tiles.map(\.data), "comparing: \(comparing)")
            #expect(grouped.tally == flat.tally, "comparing: \(comparing)")
            #expect(grouped.alike == flat.alike && grouped.decided == flat.decided && grouped.unread == flat.unread, "comparing: \(comparing)")
            #expect(flat.tally.reduce(0, +) == 85 && flat.decided > 0)
            #expect(comparing ? flat.alike > 0 && flat.unread == 0 : flat.alike == 0 && flat.unread > 0, "comparing: \(comparing)")
            let corner = try TileCoordinate(parsing: "3/7/7")
            #expect(Set(flat.tiles.map(\.coordinate)).count == 85)
            #expect(flat.tiles.first { $0.coordinate == corner }?.data == GeneratedStore.bytes(for: corner))
        }
    }

    /// Six MBTiles of zooms 0-1 with equal bytes but where `differing` gives a source other bytes.
    static func abortSources(_ stores: KindStores, differing: [String: Int]) throws -> [TileStoreLocation] {
        try (0..<6).map { source in
            let tiles = GeneratedStore.pyramid(maxZoom: 1).map { tile in
                differing["\(tile.coordinate)"] == source ? Tile(coordinate: tile.coordinate, data: GeneratedStore.bytes(for: tile.coordinate, salt: "\(source)")) : tile
            }
            return try stores.write(tiles, kind: "mbtiles", name: "abort\(source)")
        }
    }

    @Test("abort in groups of 2 stops at the first conflict in the merge's order, naming the same two sources as one merge",
          arguments: [(["1/0/0": 4, "1/1/1": 3], "1/0/0", 0, 4),
                      (["1/1/1": 3], "1/1/1", 0, 3),
                      (["1/0/1": 1, "1/1/0": 5], "1/0/1", 0, 1),
                      (["0/0/0": 0], "0/0/0", 0, 1)])
    func abortInOrder(differing: [String: Int], coordinate: String, first: Int, second: Int) throws {
        let stores = try KindStores()
        let sources = try Self.abortSources(stores, differing: differing)
        let expected = TileStoreError(.duplicateConflict, store: sources[second].address, item: "tile \(coordinate)",
                                      message: "\(sources[first].address) and \(sources[second].address) hold different bytes; nothing was written",
                                      hint: "--on-duplicate override lets the later source win, ignore keeps the first")
        for limit in [32, 2] {
            #expect(throws: expected) { try Self.stream(Self.merged(sources, .abort, openLimit: limit)) }
        }
    }

    @Test("A filtered conversion of a grouped merge (the summary writes the runs, the stream reuses them) writes what one merge writes")
    func filteredConversion() throws {
        let stores = try KindStores()
        let sources = try Self.overlappingSources(stores, count: 5)
        var options = TileConverter.Options()
        options.filter = try TileFilter(minZoom: 2, maxZoom: 3)
        var written: [[TileCoordinate: Data]] = []
        for (name, limit) in [("flat", 32), ("grouped", 2)] {
            let destination = try stores.location("mbtiles", name)
            let kind = Self.merged(sources, .override, openLimit: limit)
            let summary = try TileConverter.convert(from: kind.location, to: destination, options: options)
            #expect(summary.tilesWritten == 80)
            written.append(try stores.tiles(destination))
        }
        #expect(written[0] == written[1])
        #expect(written[1].count == 80)
    }

    @Test("sync --delete from a merge past the limit streams it (no lookup in every source): the destination equals one merge; a second sync writes nothing")
    func syncFromGroupedMerge() throws {
        let stores = try KindStores()
        let sources = try Self.overlappingSources(stores, count: 5)
        let kind = Self.merged(sources, .override, openLimit: 2)
        #expect(try kind.location.openReader().hasCheapRandomAccess == false)
        #expect(try Self.merged(sources, .override, openLimit: 5).location.openReader().hasCheapRandomAccess)
        let destination = try stores.write(GeneratedStore.pyramid(maxZoom: 1), kind: "mbtiles", name: "published")
        var options = TileSynchronizer.Options()
        options.delete = true
        let summary = try TileSynchronizer.sync(from: kind.location, to: destination, options: options)
        let flat = try Self.stream(Self.merged(sources, .override, openLimit: 32))
        #expect(summary.added + summary.replaced + summary.deleted > 0)
        #expect(try stores.tiles(destination) == Dictionary(uniqueKeysWithValues: flat.tiles.map { ($0.coordinate, $0.data) }))
        #expect(try TileSynchronizer.sync(from: kind.location, to: destination, options: options).isInSync)
    }

    @Test("40 MBTiles sources, past the default limit of 32: the same tiles and counts as one merge of all 40")
    func pastTheDefaultLimit() throws {
        let stores = try KindStores()
        let sources = try Self.overlappingSources(stores, count: 40, kinds: ["mbtiles"])
        let flat = try Self.stream(Self.merged(sources, .ignore, openLimit: 40))
        let grouped = try Self.stream(Self.merged(sources, .ignore, openLimit: MergedSources.defaultOpenLimit))
        #expect(grouped.tiles.map(\.coordinate) == flat.tiles.map(\.coordinate))
        #expect(grouped.tiles.map(\.data) == flat.tiles.map(\.data))
        #expect(grouped.tally == flat.tally && grouped.alike == flat.alike && grouped.decided == flat.decided)
        #expect(flat.tiles.count == 85 && flat.tally.count == 40)
    }

    @Test("Overlap: listed sources count throughout, streamed ones from first to last (to the end when unknown), empty ones never")
    func overlapOfSpans() throws {
        let order = TileOrder.zoomColumnTMSRow
        func at(_ text: String) throws -> TileCoordinate { try TileCoordinate(parsing: text) }
        let zoom1 = MergeOverlap.Span.from(try at("1/0/1"), to: try at("1/1/0"))
        let zoom2 = MergeOverlap.Span.from(try at("2/0/3"), to: try at("2/3/0"))
        let fromZoom1 = MergeOverlap.Span.from(try at("1/1/1"), to: nil)
        #expect(MergeOverlap.most([zoom1, zoom2, .empty], order: order) == 1)
        #expect(MergeOverlap.most([zoom1, zoom2, fromZoom1], order: order) == 2)
        #expect(MergeOverlap.most([zoom1, zoom2, fromZoom1, .whole, .whole], order: order) == 4)
        #expect(MergeOverlap.most([zoom1, zoom1, zoom1, zoom2], order: order) == 3)
        #expect(MergeOverlap.most([], order: order) == 0)
    }

    @Test("An indexed MBTiles names its last tile in index order, a PMTiles its last in tile-ID order, without streaming")
    func lastStreamedCoordinate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pyramid.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: path)
        let opened = try TileStoreLocation(kind: .mbtiles, address: path).openReader()
        let reader = try #require(opened.roles.mergeStreaming)
        #expect(opened.order == .zoomColumnTMSRow)
        #expect(reader.lastStreamedCoordinate(matching: .all) == (try TileCoordinate(parsing: "2/3/0")))
        #expect(reader.lastStreamedCoordinate(matching: try TileFilter(maxZoom: 1)) == (try TileCoordinate(parsing: "1/1/0")))
        #expect(reader.lastStreamedCoordinate(matching: try TileFilter(minZoom: 3, maxZoom: 5)) == nil)
        let archive = directory.file("pyramid.pmtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: archive)
        let (z, x, y) = try TileID.zxy(of: TileID.firstID(ofZoom: 3) - 1)
        let pmtiles = try #require(try TileStoreLocation(kind: .pmtiles, address: archive).openReader().roles.mergeStreaming)
        #expect(pmtiles.lastStreamedCoordinate(matching: .all) == (try TileCoordinate(z: z, x: x, y: y)))
        #expect((z, x, y) == (2, 3, 0))
    }

    #if os(Linux)
    /// Whether this process has a merge's scratch runs open (Linux: /proc/self/fd; the suite runs its tests one at a time,
    /// and no other suite merges in runs).
    static func holdsMergeRuns() -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?
            .contains("tilesync-merge-runs") == true }
    }

    @Test("Past the limit, sources whose ranges do not overlap stream as one merge (no runs); overlapping ones go through runs")
    func runsOnlyForOverlap() throws {
        let directory = try TemporaryDirectory()
        var disjoint: [TileStoreLocation] = []
        for zoom in 0...4 {
            let path = directory.file("z\(zoom).mbtiles")
            try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: zoom).filter { $0.coordinate.z == zoom }, to: path)
            disjoint.append(TileStoreLocation(kind: .mbtiles, address: path))
        }
        let archives = try (0...4).map { zoom in
            let path = directory.file("z\(zoom).pmtiles")
            try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: zoom).filter { $0.coordinate.z == zoom }, to: path)
            return TileStoreLocation(kind: .pmtiles, address: path)
        }
        let overlapping = Array(repeating: disjoint[4], count: 3)
        for (sources, expectsRuns, count) in [(disjoint, false, 341), (archives, false, 341), (overlapping, true, 256)] {
            let cursor = try Self.merged(sources, .abort, openLimit: 2).location.openReader().tiles(matching: .all)
            var tiles = 0, sawRuns = false
            while let tile = try cursor.next() {
                tiles += 1
                sawRuns = sawRuns || Self.holdsMergeRuns()
                #expect(tile.data == GeneratedStore.bytes(for: tile.coordinate))
            }
            #expect(tiles == count)
            #expect(sawRuns == expectsRuns)
        }
    }
    #endif
}
