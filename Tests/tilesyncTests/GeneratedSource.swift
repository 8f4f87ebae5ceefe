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

    /// The PNG signature and then `count` bytes of `text` repeated (the tests run unoptimized:
    /// the bytes are copied in doubling runs, not one at a time).
    static func pngSigned(repeating text: String, count: Int) -> Data {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let body = Array(text.utf8)
        var data = Data(count: signature.count + count)
        guard count > 0, !body.isEmpty else { return Data(signature) + Data(repeating: 0, count: max(0, count)) }
        data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            let start = base + signature.count
            signature.withUnsafeBytes { bytes in if let from = bytes.baseAddress { memcpy(base, from, signature.count) } }
            body.withUnsafeBytes { bytes in if let from = bytes.baseAddress { memcpy(start, from, min(body.count, count)) } }
            var filled = min(body.count, count)
            while filled < count {
                let copied = min(filled, count - filled)
                memcpy(start + filled, start, copied)
                filled += copied
            }
        }
        return data
    }
}
