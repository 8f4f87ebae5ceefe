import Foundation
@testable import TileSync

/// Stores for end-to-end tests: the first `count` tiles of zooms 0-8, each PNG-signed and
/// `payload` bytes long, repeating a text unique to the tile (and `salt`).
enum GeneratedSource {
    static func write(to path: String, count: Int, payload: Int, salt: String = "", metadata: TileMetadata = TileMetadata(),
                      overwrite: Bool = false) throws {
        let writer = try TileStoreLocation(parsing: path).makeWriter(TileWriterSettings(overwrite: overwrite))
        try writer.begin(metadata: metadata, format: SniffedTileFormat(.png))
        var written = 0
        outer: for z in 0...8 {
            for coordinate in try TileRange.world(z: z) {
                let body = Array((salt.isEmpty ? "\(coordinate) " : "\(salt) \(coordinate) ").utf8)
                try writer.write(Tile(coordinate: coordinate, data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                    + (0..<payload).map { body[$0 % body.count] })))
                written += 1
                if written == count { break outer }
            }
        }
        try writer.finish()
    }
}
