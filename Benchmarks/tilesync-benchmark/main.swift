import Foundation
import TileSync

/// `tilesync-benchmark generate`: writes a deterministic MBTiles for benchmarks.
///
///     swift run -c release tilesync-benchmark generate --tiles 100000 --out /tmp/bench.mbtiles
///         [--kind vector|raster|mvt|picture] [--repeat 0.4] [--seed 1] [--skip K] [--average BYTES] [--region I/N]
///
/// `tilesync-benchmark random-reads --store FILE [--reads N] [--max-zoom Z]`: reads N tiles at
/// random coordinates of zooms 0...Z (default: the store's `maxzoom`) through `TileSource` (as a map app does) and prints reads/s.
///
/// Vector-like tiles are gzip-headed pseudo-random bytes averaging 3 KB; raster-like ones are
/// PNG-headed, averaging 20 KB; `picture` ones are real PNG map pictures (`MapPictureGenerator`,
/// drawn on every core), the repeated ones plain sea. A share `--repeat` of tiles reuses one of 64 shared blobs, as
/// ocean and empty tiles do in real sets. Tiles fill whole zoom levels from 0 up, after the
/// first `--skip` coordinates (so stores made with different skips overlap where they meet);
/// `--average` sets the mean tile size; `--region I/N` keeps to one cell of a grid of N over
/// the world, as a regional extract does.
enum BenchmarkTool {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.first == "generate" || arguments.first == "random-reads" else {
            FileHandle.standardError.write(Data("usage: tilesync-benchmark generate --tiles N --out FILE.mbtiles [--kind vector|raster|mvt|picture] [--repeat 0.4] [--seed 1] [--skip K] [--average BYTES] [--region I/N]\n       tilesync-benchmark random-reads --store FILE [--reads N] [--max-zoom Z]\n".utf8))
            exit(2)
        }
        let command = arguments.removeFirst()
        var options: [String: String] = [:]
        while arguments.count >= 2, arguments[0].hasPrefix("--") {
            options[String(arguments[0].dropFirst(2))] = arguments[1]
            arguments.removeFirst(2)
        }
        if command == "random-reads" {
            guard let store = options["store"] else {
                FileHandle.standardError.write(Data("random-reads needs --store FILE\n".utf8))
                exit(2)
            }
            try RandomReads(store: store, reads: options["reads"].flatMap(Int.init) ?? 200_000,
                            maxZoom: options["max-zoom"].flatMap(Int.init)).run()
            return
        }
        guard let count = options["tiles"].flatMap(Int.init), let out = options["out"] else {
            FileHandle.standardError.write(Data("generate needs --tiles N and --out FILE\n".utf8))
            exit(2)
        }
        let generator = DatasetGenerator(
            tileCount: count, raster: options["kind"] == "raster" || options["kind"] == "picture", uncompressedVector: options["kind"] == "mvt",
            pictures: options["kind"] == "picture",
            repeatShare: options["repeat"].flatMap(Double.init) ?? 0.4,
            seed: options["seed"].flatMap(UInt64.init) ?? 1,
            skipped: options["skip"].flatMap(Int.init) ?? 0, averageSize: options["average"].flatMap(Int.init),
            region: try options["region"].map(GridRegion.init(parsing:)))
        try generator.write(to: out)
    }
}

/// Deterministic tile data: a SplitMix64 stream, so every run makes the same bytes.
struct DatasetGenerator {
    let tileCount: Int
    let raster: Bool
    /// Uncompressed vector tiles (a layer tag, then words from a small vocabulary, so they
    /// compress about as real tiles do) instead of gzip-headed random bytes.
    var uncompressedVector = false
    /// Real PNG map pictures instead of PNG-headed random bytes.
    var pictures = false
    let repeatShare: Double
    let seed: UInt64
    /// Coordinates passed over (not written) before the first tile, in the same order.
    var skipped = 0
    /// Average tile size in bytes; nil: 3,000 (vector) or 20,000 (raster).
    var averageSize: Int?
    /// Only the tiles of one cell of a grid over the world (a regional extract), every tile at
    /// zooms too low to split; nil: the whole world.
    var region: GridRegion?

    func write(to path: String) throws {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let header: [UInt8] = raster ? [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] : [0x1F, 0x8B, 0x08, 0x00]
        let average = averageSize ?? (raster ? 20_000 : 3_000)
        let words = (0..<256).map { index in Array("feature-\(index * 7919 % 1000) name:\(index) ".utf8) }
        func blob() -> Data {
            let size = average / 6 + Int(next() % UInt64(average * 5 / 3))
            if uncompressedVector {
                var bytes: [UInt8] = [0x1A]
                while bytes.count < size { bytes += words[Int(next() % 256)] }
                return Data(bytes.prefix(size))
            }
            var bytes = header
            bytes.reserveCapacity(size)
            while bytes.count < size {
                var word = next()
                withUnsafeBytes(of: &word) { bytes.append(contentsOf: $0) }
            }
            return Data(bytes.prefix(size))
        }
        let shared = (0..<64).map { _ in blob() }
        var lastZoom = 0
        while (0...lastZoom).reduce(0, { $0 + (region?.count(atZoom: $1) ?? 1 << (2 * $1)) }) < skipped + tileCount { lastZoom += 1 }
        var metadata = TileMetadata()
        metadata["name"] = "benchmark \(tileCount) \(raster ? "raster" : uncompressedVector ? "mvt" : "vector")"
        metadata["format"] = raster ? "png" : "pbf"
        metadata["minzoom"] = "0"
        metadata["maxzoom"] = String(lastZoom)
        metadata["bounds"] = BoundingBox.world.description
        metadata["center"] = "0,0,\(lastZoom / 2)"
        let writer = try TileStoreLocation(parsing: "mbtiles:" + path).makeWriter(TileWriterSettings(overwrite: true))
        try writer.begin(metadata: metadata)
        var written = 0
        var passed = 0
        var pending: [(TileCoordinate, UInt64?)] = []
        let sea = pictures ? try MapPictureGenerator.sea() : Data()
        func drawPending() throws {
            let drawn = try Self.draw(pending.map(\.1))
            for ((coordinate, _), data) in zip(pending, drawn) { try writer.write(Tile(coordinate: coordinate, data: data ?? sea)) }
            pending.removeAll(keepingCapacity: true)
        }
        zooms: for z in 0...TileCoordinate.maxZoom {
            for coordinate in try TileRange.world(z: z) {
                if let region, !region.contains(coordinate) { continue }
                passed += 1
                if passed <= skipped { continue }
                let repeated = Double(next() % 1_000_000) / 1_000_000 < repeatShare
                if pictures {
                    pending.append((coordinate, repeated ? nil : next()))
                    if pending.count == 512 { try drawPending() }
                } else {
                    try writer.write(Tile(coordinate: coordinate, data: repeated ? shared[Int(next() % 64)] : blob()))
                }
                written += 1
                if written == tileCount { break zooms }
            }
        }
        try drawPending()
        try writer.finish()
    }

    /// Pictures for the seeds, drawn on every core (nil for a nil seed).
    private static func draw(_ seeds: [UInt64?]) throws -> [Data?] {
        var results = [Result<Data?, any Error>](repeating: .success(nil), count: seeds.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
                output[index] = Result { try seeds[index].map { try MapPictureGenerator.tile(seed: $0) } }
            }
        }
        return try results.map { try $0.get() }
    }
}

/// One cell `index` of a grid of `cells` cells (as square as can be) over the world, as
/// `--region I/N`: tiles whose column and row fall in it, and every tile at zooms with fewer
/// columns or rows than the grid.
struct GridRegion {
    let columns: Int
    let rows: Int
    let column: Int
    let row: Int

    init(parsing text: String) throws {
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] > 0, (0..<parts[1]).contains(parts[0]) else {
            throw CocoaError(.formatting, userInfo: [NSLocalizedDescriptionKey: "--region takes I/N with 0 <= I < N"])
        }
        columns = Int(Double(parts[1]).squareRoot().rounded(.up))
        rows = (parts[1] + columns - 1) / columns
        column = parts[0] % columns
        row = parts[0] / columns
    }

    func contains(_ tile: TileCoordinate) -> Bool {
        let size = 1 << tile.z
        guard size >= columns, size >= rows else { return true }
        return tile.x * columns / size == column && tile.y * rows / size == row
    }

    /// Tiles of the region at zoom `z` (about).
    func count(atZoom z: Int) -> Int {
        let size = 1 << z
        guard size >= columns, size >= rows else { return size * size }
        return max(1, size * size / (columns * rows))
    }
}

/// Random tile reads through `TileSource`, from one thread, with a fixed seed.
struct RandomReads {
    let store: String
    let reads: Int
    /// Zooms 0...maxZoom; nil: the store's `maxzoom`.
    let maxZoom: Int?

    func run() throws {
        let source = try TileSource(path: store)
        let maxZoom = self.maxZoom ?? source.metadata.maxZoom ?? 8
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let started = Date()
        var found = 0
        var bytes = 0
        for _ in 0..<reads {
            let z = next() % (maxZoom + 1)
            let size = 1 << z
            if let data = try source.tile(z: z, x: next() % size, y: next() % size) {
                found += 1
                bytes += data.count
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "%.0f reads/s (%d reads, %d found, %.1f MB, %.2f s)", Double(reads) / seconds, reads, found, Double(bytes) / 1e6, seconds))
    }
}

try BenchmarkTool.main()
