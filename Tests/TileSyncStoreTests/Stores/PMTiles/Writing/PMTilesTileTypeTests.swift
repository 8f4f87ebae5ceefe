import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles tile types from the tiles and the declared format: MapLibre Tiles and AVIF, which bytes do not tell")
struct PMTilesTileTypeTests {
    private func type(declared: String?, sniffed: TileFormat) -> UInt8 {
        var metadata = TileMetadata()
        if let declared { metadata["format"] = declared }
        return PMTilesHeaderBuilder.header(metadata: metadata, format: SniffedTileFormat(sniffed), bounds: nil, center: nil,
                                           zooms: (min: 0, max: 1)).tileTypeValue
    }

    @Test("martin's mlt.mbtiles format and `mlt` give type 6 whether the bytes sniff as unknown or as MVT", arguments: [
        "application/vnd.maplibre-vector-tile", "mlt", " MLT ",
    ])
    func mapLibreTiles(declared: String) {
        #expect(type(declared: declared, sniffed: .unknown) == 6)
        #expect(type(declared: declared, sniffed: .pbf) == 6)
    }

    @Test("AVIF by name or MIME type; the bytes win where they are known; an unknown name stays unknown")
    func others() {
        #expect(type(declared: "image/avif", sniffed: .unknown) == 5)
        #expect(type(declared: "avif", sniffed: .unknown) == 5)
        #expect(type(declared: "pbf", sniffed: .unknown) == 1)
        #expect(type(declared: "application/x-protobuf", sniffed: .pbf) == 1)
        #expect(type(declared: "jpg", sniffed: .png) == 2)
        #expect(type(declared: "avif", sniffed: .webp) == 4)
        #expect(type(declared: "mlt", sniffed: .png) == 2)
        #expect(type(declared: "x-custom", sniffed: .unknown) == 0)
        #expect(type(declared: nil, sniffed: .unknown) == 0)
    }
}
