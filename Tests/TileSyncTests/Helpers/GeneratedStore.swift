import Foundation
@testable import TileSync

/// Small stores made in tests: distinct, deterministic PNG-signed bytes per tile.
enum GeneratedStore {
    /// Bytes unique to a coordinate, starting with the PNG signature.
    static func bytes(for tile: TileCoordinate, salt: String = "") -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("tile \(tile) \(salt)".utf8))
    }

    /// Every tile of zooms 0...maxZoom.
    static func pyramid(maxZoom: Int) -> [Tile] {
        (0...maxZoom).flatMap { z in
            ((try? TileRange.world(z: z)).map(Array.init) ?? []).map { Tile(coordinate: $0, data: bytes(for: $0)) }
        }
    }

    /// Writes tiles to a new store of any kind.
    static func write(_ tiles: [Tile], to location: String, metadata: TileMetadata = defaultMetadata,
                      layout: PathTemplate = .xyz, mbtilesSchema: MBTilesSchema? = nil) throws {
        var options = TileStoreOptions()
        options.layout = layout
        if let mbtilesSchema { options.mbtilesSchema = mbtilesSchema }
        let writer = try TileStoreLocation(parsing: location, options: options).makeWriter()
        try writer.begin(metadata: metadata, format: SniffedTileFormat(.png))
        for tile in tiles { try writer.write(tile) }
        try writer.finish()
    }

    static var defaultMetadata: TileMetadata {
        var metadata = TileMetadata()
        metadata["name"] = "generated"
        metadata["format"] = "png"
        metadata["custom key"] = "kept ✓"
        metadata.setNull("nothing")
        return metadata
    }
}

extension GeneratedStore {
    /// Uncompressed vector-tile-like payloads: a layer tag (0x1A) and bytes unique to the tile.
    static func vectorPayload(_ coordinate: TileCoordinate) -> [UInt8] {
        [0x1A, 0x20] + Array(String(repeating: "layer \(coordinate) ", count: 8).utf8)
    }

    /// A gzip-compressed vector MBTiles of zooms 0-2.
    static func gzipVectorSource(in directory: TemporaryDirectory) throws -> (TileStoreLocation, [TileCoordinate: [UInt8]]) {
        let coordinates = (0...2).flatMap { z in ((try? TileRange.world(z: z)).map(Array.init) ?? []) }
        let tiles = try coordinates.map { Tile(coordinate: $0, data: Data(try GzipCodec.compress(vectorPayload($0)))) }
        var metadata = TileMetadata()
        metadata["name"] = "vector"
        metadata["format"] = "pbf"
        let path = directory.file("vector.mbtiles")
        try GeneratedStore.write(tiles, to: path, metadata: metadata)
        return (try TileStoreLocation(parsing: path), Dictionary(uniqueKeysWithValues: coordinates.map { ($0, vectorPayload($0)) }))
    }
}
