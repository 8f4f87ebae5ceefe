import Testing
@testable import TileSync

@Suite("Tile coordinates")
struct TileCoordinateTests {
    @Test("TMS flip matches the MBTiles spec example: XYZ 11/327/791 is TMS row 1256")
    func tmsFlip() throws {
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        #expect(tile.tmsY == 1256)
        #expect(try TileCoordinate(z: 11, x: 327, tmsY: 1256) == tile)
    }

    @Test("Flip at the edges: z=0 and z=30")
    func edges() throws {
        #expect(try TileCoordinate(z: 0, x: 0, y: 0).tmsY == 0)
        let last = (1 << 30) - 1
        #expect(try TileCoordinate(z: 30, x: last, y: 0).tmsY == last)
        #expect(try TileCoordinate(z: 30, x: 0, y: last).tmsY == 0)
    }

    @Test("Out-of-range values throw named errors, never trap")
    func outOfRange() {
        #expect(throws: TileCoordinateError.zoomOutOfRange(31)) { try TileCoordinate(z: 31, x: 0, y: 0) }
        #expect(throws: TileCoordinateError.zoomOutOfRange(-1)) { try TileCoordinate(z: -1, x: 0, y: 0) }
        #expect(throws: TileCoordinateError.columnOutOfRange(z: 2, x: 4)) { try TileCoordinate(z: 2, x: 4, y: 0) }
        #expect(throws: TileCoordinateError.rowOutOfRange(z: 2, y: -1)) { try TileCoordinate(z: 2, x: 0, y: -1) }
        #expect(throws: TileCoordinateError.tmsRowOutOfRange(z: 6, row: 64)) { try TileCoordinate(z: 6, x: 10, tmsY: 64) }
        #expect(throws: TileCoordinateError.zoomOutOfRange(Int.max)) { try TileCoordinate(z: Int.max, x: 0, y: 0) }
        #expect(TileCoordinateError.tmsRowOutOfRange(z: 6, row: 64).description == "TMS row 64 is out of range at zoom 6 (0...63)")
    }

    @Test("Quadkeys round-trip, including the empty key at zoom 0")
    func quadkeys() throws {
        #expect(try TileCoordinate(z: 3, x: 3, y: 5).quadkey == "213")
        #expect(try TileCoordinate(quadkey: "213") == TileCoordinate(z: 3, x: 3, y: 5))
        #expect(try TileCoordinate(z: 0, x: 0, y: 0).quadkey == "")
        #expect(try TileCoordinate(quadkey: "") == TileCoordinate(z: 0, x: 0, y: 0))
        #expect(try TileCoordinate(z: 11, x: 327, y: 791).quadkey == "02301020333")
        #expect(throws: TileCoordinateError.malformedQuadkey("0124")) { try TileCoordinate(quadkey: "0124") }
        #expect(throws: TileCoordinateError.malformedQuadkey(String(repeating: "0", count: 31))) {
            try TileCoordinate(quadkey: String(repeating: "0", count: 31))
        }
    }

    @Test("Parsing z/x/y accepts decimal digits only")
    func parsing() throws {
        #expect(try TileCoordinate(parsing: "11/327/791") == TileCoordinate(z: 11, x: 327, y: 791))
        for bad in ["11/327", "a/1/1", "1/-1/0", "1/1/1/1", "", "99999999999999999999/0/0", "1/+1/0"] {
            #expect(throws: TileCoordinateError.malformed(bad)) { try TileCoordinate(parsing: bad) }
        }
    }

    @Test("Order is zoom, column, row")
    func order() throws {
        let tiles = try [TileCoordinate(z: 1, x: 1, y: 0), TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 1, x: 0, y: 1)]
        #expect(tiles.sorted().map(\.description) == ["0/0/0", "1/0/1", "1/1/0"])
    }
}
