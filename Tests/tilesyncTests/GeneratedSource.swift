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
                let text = salt.isEmpty ? "\(coordinate) " : "\(salt) \(coordinate) "
                try writer.write(Tile(coordinate: coordinate, data: pngSigned(repeating: text, count: payload)))
                written += 1
                if written == count { break outer }
            }
        }
        try writer.finish()
    }

    /// The PNG signature and then `count` bytes of `text` (not empty) repeated: the text is
    /// doubled until it is long enough (the tests run unoptimized, so not a byte at a time).
    static func pngSigned(repeating text: String, count: Int) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var repeated = Data(text.utf8)
        guard count > 0, !repeated.isEmpty else { return data }
        while repeated.count < count { repeated.append(repeated) }
        data.append(repeated.prefix(count))
        return data
    }
}
