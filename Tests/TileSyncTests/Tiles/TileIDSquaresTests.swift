import Testing
@testable import TileSync

@Suite("Tile-ID squares: a run of tile IDs as aligned squares, by arithmetic")
struct TileIDSquaresTests {
    /// The tiles of a run, one by one, as the walk would give them.
    static func tiles(in ids: Range<UInt64>) throws -> Set<TileCoordinate> {
        Set(try ids.map { id in
            let (z, x, y) = try TileID.zxy(of: id)
            return TileCoordinate(unchecked: z, x, y)
        })
    }

    @Test("The squares of a run hold exactly its tiles, once each, for runs across zooms")
    func squaresMatchTheTiles() throws {
        var generator = SystemRandomNumberGenerator()
        let end = TileID.firstID(ofZoom: 6)
        for _ in 0..<300 {
            let a = UInt64.random(in: 0..<end, using: &generator)
            let b = UInt64.random(in: a...end, using: &generator)
            var found: [TileCoordinate] = []
            TileIDSquares.forEach(in: a..<b) { square in found += Array(square) }
            #expect(found.count == Int(b - a), "\(a)..<\(b)")
            #expect(Set(found) == (try Self.tiles(in: a..<b)), "\(a)..<\(b)")
            #expect(TileIDSquares.count(in: a..<b) == b - a)
        }
    }

    @Test("A whole zoom is one square; a run of 2^31 IDs is a handful of squares")
    func largeRuns() {
        var squares: [TileRange] = []
        TileIDSquares.forEach(in: TileID.firstID(ofZoom: 15)..<TileID.firstID(ofZoom: 16)) { squares.append($0) }
        #expect(squares == [TileRange(unchecked: 15, columns: 0...32767, rows: 0...32767)])
        var count = 0
        var tiles = 0
        TileIDSquares.forEach(in: 5..<(5 + (1 << 31))) { square in
            count += 1
            tiles += square.count
        }
        #expect(tiles == 1 << 31)
        #expect(count < 100)
    }

    @Test("IDs past the highest zoom asked for are left out of the squares and the count")
    func zoomLimit() {
        let ids = TileID.firstID(ofZoom: 30)..<TileID.end
        var tiles = 0
        TileIDSquares.forEach(in: ids) { tiles += $0.count }
        #expect(tiles == 1 << 60)
        #expect(TileIDSquares.count(in: ids) == 1 << 60)
        #expect(TileIDSquares.count(in: ids, maxZoom: 29) == 0)
    }
}
