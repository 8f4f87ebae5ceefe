import Foundation
import Testing
@testable import TileSync

/// The python `pmtiles` package, the reference reader these tests compare with.
enum PythonPMTiles {
    static let available: Bool = (try? run(["-c", "import pmtiles.reader"]))?.status == 0
    static let missingMessage: Comment = "python3 with the pmtiles package not found (pip install pmtiles): python interop SKIPPED"

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        try ExternalTool.run("python3", arguments)
    }

    /// What the python reader sees: header counts, then `z/x/y md5` per tile, sorted.
    static func dump(_ path: String) throws -> [String] {
        let script = """
            import sys, hashlib
            from pmtiles.reader import Reader, MmapSource, all_tiles
            with open(sys.argv[1], "rb") as f:
                source = MmapSource(f)
                h = Reader(source).header()
                print("header", h["addressed_tiles_count"], h["tile_entries_count"], h["tile_contents_count"], int(h["clustered"]),
                      h["min_zoom"], h["max_zoom"], h["tile_type"].value, h["tile_compression"].value)
                lines = ["%d/%d/%d %s" % (z, x, y, hashlib.md5(data).hexdigest().upper()) for (z, x, y), data in all_tiles(source)]
            print("\\n".join(sorted(lines)))
            """
        let result = try run(["-c", script, path])
        #expect(result.status == 0, "python pmtiles failed on \(path)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The same dump from TileSync's reader.
    static func ours(_ path: String) throws -> [String] {
        let reader = try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: path))
        let h = reader.header
        var lines: [String] = []
        let cursor = try reader.tiles(matching: .all)
        while let tile = try cursor.next() { lines.append("\(tile.coordinate) \(ContentHash(of: tile.data).hex)") }
        return ["header \(h.addressedTilesCount) \(h.tileEntriesCount) \(h.tileContentsCount) \(h.isClustered ? 1 : 0) \(h.minZoom) \(h.maxZoom) \(h.tileTypeValue) \(h.tileCompressionValue)"]
            + lines.sorted()
    }
}
