import Testing
@testable import TileSync

@Suite("Web Mercator geography")
struct WebMercatorTests {
    @Test("lon 13.4, lat 52.5 at z10 is tile 550/335 (OSM slippy-map formula)")
    func berlin() throws {
        let tile = try WebMercator.tile(longitude: 13.4, latitude: 52.5, zoom: 10)
        #expect(tile.description == "10/550/335")
        #expect(tile.tmsY == 688)
    }

    @Test("Edges: lon -180/180, lat +-85.0511 and beyond, z 0 and 30")
    func edges() throws {
        #expect(try WebMercator.tile(longitude: -180, latitude: 85.0511, zoom: 1).description == "1/0/0")
        #expect(try WebMercator.tile(longitude: 180, latitude: -85.0511, zoom: 1).description == "1/1/1")
        #expect(try WebMercator.tile(longitude: 180, latitude: 90, zoom: 3).description == "3/7/0")
        #expect(try WebMercator.tile(longitude: 0, latitude: -90, zoom: 3).description == "3/4/7")
        #expect(try WebMercator.tile(longitude: 0, latitude: 0, zoom: 0).description == "0/0/0")
        let last = (1 << 30) - 1
        #expect(try WebMercator.tile(longitude: 180, latitude: -WebMercator.maxLatitude, zoom: 30).description == "30/\(last)/\(last)")
        #expect(try WebMercator.tile(longitude: -180, latitude: WebMercator.maxLatitude, zoom: 30).description == "30/0/0")
        #expect(try WebMercator.tile(longitude: 180, latitude: -90, zoom: 30).description == "30/\(last)/\(last)")
        // -85.0511 is 1.3 m north of the Mercator edge: at z30 (4 cm tiles) that is rows away from it.
        #expect(try WebMercator.tile(longitude: 0, latitude: -85.0511, zoom: 30).y < last)
    }

    @Test("Bad values throw")
    func badValues() {
        #expect(throws: GeographyError.longitudeOutOfRange(180.5)) { try WebMercator.tile(longitude: 180.5, latitude: 0, zoom: 1) }
        #expect(throws: GeographyError.latitudeOutOfRange(100)) { try WebMercator.tile(longitude: 0, latitude: 100, zoom: 1) }
        #expect(throws: GeographyError.zoomOutOfRange(31)) { try WebMercator.tile(longitude: 0, latitude: 0, zoom: 31) }
        #expect(throws: (any Error).self) { try WebMercator.tile(longitude: .nan, latitude: 0, zoom: 1) }
        #expect(throws: GeographyError.malformedBoundingBox("1,2,3")) { try BoundingBox(parsing: "1,2,3") }
        #expect(throws: GeographyError.latitudeOutOfRange(100)) { try BoundingBox(parsing: "0,0,10,100") }
        #expect(throws: GeographyError.southAboveNorth(south: 10, north: 0)) { try BoundingBox(parsing: "0,10,10,0") }
    }

    @Test("Tile bounds: z0 is the whole Mercator world; 11/327/791 is in San Francisco")
    func bounds() throws {
        let world = WebMercator.bounds(of: try TileCoordinate(z: 0, x: 0, y: 0))
        #expect(world.description == "-180,-85.051129,180,85.051129")
        let tile = WebMercator.bounds(of: try TileCoordinate(z: 11, x: 327, y: 791))
        #expect(tile.description == "-122.519531,37.71859,-122.34375,37.857507")
        #expect(try WebMercator.tile(longitude: -122.45, latitude: 37.78, zoom: 11).description == "11/327/791")
    }

    @Test("Bounding box to tile ranges, edge tiles that only touch are excluded")
    func ranges() throws {
        let box = try BoundingBox(parsing: "13.08,52.33,13.77,52.68")
        let ranges = try WebMercator.tileRanges(covering: box, zooms: 8...10)
        #expect(ranges.map(\.description) == ["8/137-137/83-84", "9/274-275/167-168", "10/549-551/335-336"])
        #expect(ranges.map(\.count) == [2, 4, 6])
        let quarter = try BoundingBox(parsing: "-180,0,0,85.0511287798066")
        #expect(try WebMercator.tileRanges(covering: quarter, zoom: 1).map(\.description) == ["1/0-0/0-0"])
        #expect(try WebMercator.tileRanges(covering: .world, zoom: 2).map(\.count) == [16])
    }

    @Test("A box across the antimeridian gives two ranges, or one where both reach the same columns (no tile twice)")
    func antimeridian() throws {
        let box = try BoundingBox(parsing: "170,-10,-170,10")
        let ranges = try WebMercator.tileRanges(covering: box, zoom: 3)
        #expect(ranges.map(\.description) == ["3/7-7/3-4", "3/0-0/3-4"])
        #expect(try WebMercator.tileRanges(covering: box, zoom: 0).map(\.description) == ["0/0-0/0-0"])
        #expect(try WebMercator.tileRanges(covering: box, zoom: 1).map(\.description) == ["1/0-1/0-1"])
        #expect(try WebMercator.tileRanges(covering: try BoundingBox(parsing: "-10,-10,-20,10"), zoom: 4).map(\.count) == [16 * 2])
    }

    @Test("The zoom that fits a region")
    func fittingZoom() throws {
        #expect(try WebMercator.zoom(fitting: .world) == 0)
        #expect(try WebMercator.zoom(fitting: BoundingBox(parsing: "13.08,52.33,13.77,52.68")) == 9)
        #expect(try WebMercator.zoom(fitting: BoundingBox(parsing: "13.08,52.33,13.77,52.68"), tilesAcross: 4) == 11)
        #expect(try WebMercator.zoom(fittingLongitudeSpan: 360, latitudeSpan: 0) == 0)
        #expect(try WebMercator.zoom(fittingLongitudeSpan: 0.7, latitudeSpan: 0.35, centerLatitude: 52.5) == 9)
        #expect(try WebMercator.zoom(fittingLongitudeSpan: 1e-12, latitudeSpan: 0) == 30)
        #expect(try WebMercator.zoom(fittingLongitudeSpan: Double.leastNormalMagnitude / 1e4, latitudeSpan: 0) == 30, "1 / span overflows to infinity")
        #expect(try WebMercator.zoom(fitting: BoundingBox(parsing: "0,0,1e-310,1e-310")) == 30)
        #expect(throws: GeographyError.emptySpan) { try WebMercator.zoom(fittingLongitudeSpan: 0, latitudeSpan: 0) }
    }

    @Test("A filter prunes by zoom and box")
    func filter() throws {
        let filter = try TileFilter(minZoom: 8, maxZoom: 9, boundingBox: BoundingBox(parsing: "13.08,52.33,13.77,52.68"))
        #expect(filter.contains(try TileCoordinate(z: 8, x: 137, y: 83)))
        #expect(!filter.contains(try TileCoordinate(z: 8, x: 138, y: 83)))
        #expect(!filter.contains(try TileCoordinate(z: 10, x: 550, y: 335)))
        #expect(filter.allows(zoom: 9, column: 275))
        #expect(!filter.allows(zoom: 9, column: 276))
        #expect(throws: GeographyError.zoomOutOfRange(3)) { try TileFilter(minZoom: 5, maxZoom: 3) }
    }
}
