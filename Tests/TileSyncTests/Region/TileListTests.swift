import Foundation
import Testing
@testable import TileSync

@Suite("Tile lists: expire-list lines read, widened, sorted on disk without repeats, looked up")
struct TileListTests {
    static func list(_ text: String, widening: ClosedRange<Int>? = nil, skipInvalid: Bool = false) throws -> TileList {
        let directory = try TemporaryDirectory()
        let path = directory.file("list")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try TileList(path: path, widening: widening, skipInvalid: skipInvalid, scratchFolder: directory.path)
    }

    static func error(_ text: String) -> String {
        do {
            _ = try list(text)
            return "read"
        } catch let error as TileListError {
            return "line \(error.line.map(String.init) ?? "-"): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test("z/x/y, z x y, z,x,y, tabs, CRLF, blank lines, comments and repeats")
    func formats() throws {
        let list = try Self.list("# osm2pgsql expire\n14/8800/5373\n14 8801 5373\r\n14,8800,5374\n\n\t3/4/2 \n14/8800/5373\n  # indented comment\n3/4/2")
        #expect(list.count == 4)
        #expect(list.listedLines == 6)
        for tile in ["14/8800/5373", "14/8801/5373", "14/8800/5374", "3/4/2"] { #expect(list.contains(try TileCoordinate(parsing: tile))) }
        for tile in ["14/8801/5374", "3/4/3", "0/0/0", "14/0/0"] { #expect(!list.contains(try TileCoordinate(parsing: tile))) }
        #expect(list.extent(atZoom: 14) == TileRange(unchecked: 14, columns: 8800...8801, rows: 5373...5374))
        #expect(try Self.list("3/4/2\n14/8800/5374\n14/8801/5373\n14/8800/5373").fingerprint == list.fingerprint)
        #expect(try Self.list("3/4/2\n14/8800/5374").fingerprint != list.fingerprint)
    }

    @Test("Bad lines name their number and what is wrong; --skip-invalid counts them")
    func badLines() throws {
        #expect(Self.error("1/0/0\n3/8/0") == "line 2: column x=8 is out of range at zoom 3 (0...7)")
        #expect(Self.error("3/0/9") == "line 1: row y=9 is out of range at zoom 3 (0...7)")
        #expect(Self.error("31/0/0") == "line 1: zoom 31 is out of range (0...30)")
        #expect(Self.error("0/0/0\n-1/0/0") == "line 2: not z/x/y (found '-')")
        #expect(Self.error("3/1") == "line 1: not z/x/y (2 numbers)")
        #expect(Self.error("3/1/1/1") == "line 1: not z/x/y (4 numbers)")
        #expect(Self.error("\u{1}\u{2}\u{FF}") == "line 1: not z/x/y (found byte 1)")
        #expect(Self.error("3/99999999999/1") == "line 1: a number is too large")
        #expect(Self.error("0/0/0\n" + String(repeating: "7", count: 3_000_000)) == "line 2: longer than 256 bytes")
        let skipped = try Self.list("3/8/0\n2/1/1\nx\n" + String(repeating: "1", count: 1000) + "\n2/1/2", skipInvalid: true)
        #expect(skipped.count == 2 && skipped.skippedLines == 3 && skipped.listedLines == 2)
    }

    @Test("Widening: a z14 tile with 0-16 is its 14 ancestors, itself and its 4 + 16 descendants; too wide is refused")
    func widening() throws {
        let list = try Self.list("14/8800/5373", widening: 0...16)
        #expect(list.count == 35)
        #expect(list.contains(try TileCoordinate(z: 0, x: 0, y: 0)))
        #expect(list.contains(try TileCoordinate(z: 13, x: 4400, y: 2686)))
        #expect(list.contains(try TileCoordinate(z: 16, x: 35203, y: 21495)))
        #expect(!list.contains(try TileCoordinate(z: 16, x: 35204, y: 21495)))
        #expect(list.tiles(in: TileRange(unchecked: 15, columns: 0...40000, rows: 0...40000)).map(\.description)
            == ["15/17600/10746", "15/17600/10747", "15/17601/10746", "15/17601/10747"])
        let only = try Self.list("14/8800/5373", widening: 15...15)
        let listedTile = try TileCoordinate(z: 14, x: 8800, y: 5373)
        #expect(only.count == 4 && !only.contains(listedTile))
        #expect(throws: TileListError.self) { try Self.list("0/0/0", widening: 0...30) }
    }

    @Test("200,000 lines with repeats, sorted in blocks on disk: the count, every lookup and ranges equal a set's")
    func large() throws {
        var random = SplitMix64(seed: 7)
        var set = Set<TileCoordinate>()
        var lines: [String] = []
        for _ in 0..<200_000 {
            let z = Int(random.next() % 6) + 10
            let tile = TileCoordinate(unchecked: z, Int(random.next() % 64), Int(random.next() % 64))
            set.insert(tile)
            lines.append(tile.description)
        }
        let list = try Self.list(lines.joined(separator: "\n"))
        #expect(list.count == set.count)
        for tile in set.prefix(5000) { #expect(list.contains(tile)) }
        #expect(!list.contains(TileCoordinate(unchecked: 12, 64, 0)))
        let range = TileRange(unchecked: 12, columns: 10...20, rows: 5...9)
        #expect(list.tiles(in: range) == set.filter { range.contains($0) }.sorted { ($0.x, $0.y) < ($1.x, $1.y) })
        let filter = try TileFilter(minZoom: 12, maxZoom: 12, boundingBox: BoundingBox(west: -180, south: 0, east: 0, north: 85), tiles: list)
        let expected = set.filter { filter.contains($0) }
        #expect(filter.ranges(atZoom: 12).reduce(0) { $0 + $1.count } == expected.count)
        #expect(filter.ranges(atZoom: 12).flatMap { Array($0) }.allSatisfy { expected.contains($0) })
        #expect(filter.ranges(atZoom: 11).isEmpty)
    }

    @Test("Column runs: every listed tile once, in (z, x) order, rows ascending or descending, across blocks and zoom bounds")
    func columnRuns() throws {
        var random = SplitMix64(seed: 11)
        var set = Set<TileCoordinate>()
        for _ in 0..<30_000 {
            let z = Int(random.next() % 4) + 9
            set.insert(TileCoordinate(unchecked: z, Int(random.next() % 40), Int(random.next() % 40)))
        }
        let list = try Self.list(set.map(\.description).joined(separator: "\n"))
        #expect(list.count > 3 * TileList.blockKeys)
        for (zooms, descending) in [(9...12, false), (9...12, true), (10...11, true), (0...8, false), (12...30, false)] {
            let runs = Array(list.columnRuns(zooms: zooms, rowsDescending: descending))
            let tiles = runs.flatMap { run in descending ? Array(run).reversed() : Array(run) }
            let expected = set.filter { zooms.contains($0.z) }.sorted { a, b in
                (a.z, a.x, descending ? -a.y : a.y) < (b.z, b.x, descending ? -b.y : b.y)
            }
            #expect(tiles == expected)
            #expect(runs.allSatisfy { $0.columns.count == 1 })
            for (run, next) in zip(runs, runs.dropFirst()) where run.z == next.z && run.columns == next.columns {
                #expect(descending ? next.rows.upperBound + 1 < run.rows.lowerBound : run.rows.upperBound + 1 < next.rows.lowerBound)
            }
        }
        let single = try Self.list("3/2/5\n3/2/6\n3/2/7\n3/2/1\n4/0/0")
        #expect(Array(single.columnRuns(zooms: 0...30, rowsDescending: true)).map(\.description)
                    == [TileRange(unchecked: 3, columns: 2...2, rows: 5...7), TileRange(unchecked: 3, columns: 2...2, rows: 1...1),
                        TileRange(unchecked: 4, columns: 0...0, rows: 0...0)].map(\.description))
        #expect(Array(try Self.list("").columnRuns(zooms: 0...30, rowsDescending: false)).isEmpty)
    }

    @Test("Tiles far apart at zoom 30: the extent's 2^30 columns are not walked one by one")
    func farApart() throws {
        let last = (1 << 30) - 1
        let list = try Self.list("30/0/0\n30/\(last)/\(last)\n30/0/\(last)\n30/5/5\n")
        let extent = try #require(list.extent(atZoom: 30))
        #expect(extent.columns == 0...last && extent.rows == 0...last)
        #expect(list.tiles(in: extent).map(\.description) == ["30/0/0", "30/0/\(last)", "30/5/5", "30/\(last)/\(last)"])
        #expect(list.tiles(in: TileRange(unchecked: 30, columns: 1...last, rows: 0...last)).map(\.description) == ["30/5/5", "30/\(last)/\(last)"])
        let filter = try TileFilter(minZoom: 30, maxZoom: 30, tiles: list)
        #expect(filter.ranges(atZoom: 30).reduce(0) { $0 + $1.count } == 4)
        #expect([0, 1, 4, 5, 6, last - 1, last].map { filter.allows(zoom: 30, column: $0) } == [true, false, false, true, false, false, true])
        #expect(!filter.allows(zoom: 29, column: 0))
    }

    @Test("Three million repeats of one line make one tile")
    func repeats() throws {
        let list = try Self.list(String(repeating: "14/1/1\n", count: 3_000_000))
        #expect(list.count == 1 && list.listedLines == 3_000_000)
    }
}
