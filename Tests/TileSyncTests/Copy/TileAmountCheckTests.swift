import Foundation
import Testing
@testable import TileSync

@Suite("Limits before the first write: --max-tiles, free space, decompression bombs")
struct TileAmountCheckTests {
    @Test("An amount larger than the destination's free space is refused with both numbers; --no-space-check lets it through")
    func freeSpace() throws {
        let folder = try TemporaryDirectory()
        let free = try #require(FreeSpace(near: folder.path))
        let amount = TileAmount(tiles: 1000, bytes: free.availableBytes)
        let blocks = (free.availableBytes / 1000 + free.blockSize - 1) / free.blockSize * free.blockSize
        let cases: [(name: String, needed: Int)] = [("out.mbtiles", free.availableBytes + 64_000), ("out-folder", 1000 * blocks)]
        for (name, needed) in cases {
            let destination = try TileStoreLocation(parsing: folder.file(name))
            do {
                try TileAmountCheck.checkSpace(amount, destination: destination, deduplicates: false, limits: TileAmountLimits())
                Issue.record("\(name): no refusal")
            } catch let error as TileStoreError {
                #expect(error.kind == .limitExceeded)
                #expect(error.message.hasPrefix("1000 tiles need about \(needed) bytes here, and its file system has "), "\(error.message)")
                #expect(error.hint == "free some space or write elsewhere; --no-space-check tries anyway")
            }
            var unchecked = TileAmountLimits()
            unchecked.checksFreeSpace = false
            try TileAmountCheck.checkSpace(amount, destination: destination, deduplicates: false, limits: unchecked)
            let small = TileAmount(tiles: 10, bytes: 1000, distinctBytes: 10)
            try TileAmountCheck.checkSpace(small, destination: destination, deduplicates: false, limits: TileAmountLimits())
        }
        let repeated = TileAmount(tiles: 1000, bytes: free.availableBytes, distinctBytes: 4096)
        try TileAmountCheck.checkSpace(repeated, destination: TileStoreLocation(kind: .pmtiles, address: folder.file("o.pmtiles")),
                                       deduplicates: true, limits: TileAmountLimits())
    }

    @Test("A gzip tile that inflates past 64 MiB fails under --compress, naming the tile and the limit; with --skip-invalid it is counted")
    func zipBombTile() throws {
        let folder = try TemporaryDirectory()
        let bomb = Data(try GzipCodec.compress([UInt8](repeating: 0, count: (64 << 20) + 1)))
        #expect(bomb.count < 100_000)
        let coordinate = TileCoordinate(unchecked: 3, 2, 1)
        let source = folder.file("bomb.mbtiles")
        try GeneratedStore.write([Tile(coordinate: coordinate, data: bomb)], to: source)
        var options = TileConverter.Options()
        options.transforms.compression = .zstd
        let started = Date()
        let destination = TileStoreLocation(kind: .mbtiles, address: folder.file("out.mbtiles"))
        do {
            _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: source), to: destination, options: options)
            Issue.record("the bomb was converted")
        } catch let error as TileStoreError {
            #expect(error.kind == .invalidTile)
            #expect(error.item == "tile 3/2/1")
            #expect(error.message.contains("decompresses to more than 67108864 bytes, TileSync's limit (a decompression bomb?)"), "\(error.message)")
        }
        #expect(!AtomicFile.exists(destination.address))
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: source), to: destination, options: options)
        #expect(summary.tilesWritten == 0 && summary.invalidTiles.count == 1)
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
