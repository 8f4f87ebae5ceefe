import Foundation
import Testing

@Suite("tilesync verify --deep end to end")
struct VerifyDeepEndToEndTests {
    /// An MBTiles of three gzip vector tiles made by python: 0/0/0 sound, 1/0/0 with a key index
    /// past its keys, 1/1/1 cut in half.
    static func makeStore(_ path: String) throws {
        let script = """
            import gzip, sqlite3, sys
            def varint(n):
                out = b""
                while n >= 0x80: out += bytes([n & 0x7F | 0x80]); n >>= 7
                return out + bytes([n])
            def field(number, payload): return varint(number << 3 | 2) + varint(len(payload)) + payload
            def layer(tags):
                feature = field(2, b"".join(varint(t) for t in tags)) + varint(3 << 3) + varint(1) + field(4, bytes([9, 4, 4]))
                return field(3, field(1, b"places") + field(2, feature) + field(3, b"name") + field(4, field(1, b"Oslo"))
                             + varint(15 << 3) + varint(2))
            db = sqlite3.connect(sys.argv[1])
            db.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);")
            db.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "deep"), ("format", "pbf"), ("minzoom", "0"), ("maxzoom", "1"), ("bounds", "-180,-85.051129,180,85.051129")])
            good, bad = layer([0, 0]), layer([3, 0])
            db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", [(0, 0, 0, gzip.compress(good, mtime=0)),
                (1, 0, 1, gzip.compress(bad, mtime=0)), (1, 1, 0, gzip.compress(good[:len(good) // 2], mtime=0))])
            db.commit()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static let note = "Note: no agg_tiles_hash in the metadata (--fix adds it)\n"

    @Test("Each bad tile is a line naming it and the defect, exit 1; --json gives one object a problem and a summary")
    func badTiles() throws {
        let directory = NSTemporaryDirectory() + "tilesync-deep-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.makeStore(directory + "/deep.mbtiles")
        let shallow = try ToolRunner.run(["verify", "deep.mbtiles"], in: directory)
        #expect(shallow.status == 0 && shallow.stdout == Self.note + "deep.mbtiles: OK, 3 tiles checked\n")
        let text = try ToolRunner.run(["verify", "deep.mbtiles", "--deep"], in: directory)
        #expect(text.status == 1)
        #expect(text.stdout == """
            Problem: deep.mbtiles: tile 1/0/0: vector tile: layer 'places', feature 0: a key index 3 past the 1 keys (byte 12)
            Problem: deep.mbtiles: tile 1/1/1: vector tile: layer 'layer 0': a length of 37 bytes past the end (17 left) (byte 1)
            Note: no agg_tiles_hash in the metadata (--fix adds it)
            deep.mbtiles: 2 problems (2 content), 3 tiles checked

            """)
        let json = try ToolRunner.run(["verify", "deep.mbtiles", "--deep", "--json"], in: directory)
        #expect(json.status == 1)
        let lines = json.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == #"{"problem":{"category":"content","item":"tile 1/0/0","message":"vector tile: layer 'places', feature 0: a key index 3 past the 1 keys (byte 12)","warning":false,"fixable":false}}"#)
        #expect(lines.last?.hasPrefix(#"{"summary":{"store":"deep.mbtiles","ok":false,"tiles_checked":3,"grids_checked":0,"problems":2,"warnings":0,"counts":{"content":2}"#) == true)
        let other = try ToolRunner.run(["verify", "deep.mbtiles", "deep.mbtiles", "--deep"], in: directory)
        #expect(other.status == 2 && other.stderr.hasPrefix("Error: --fix, --deep and --json work on one store"))
    }
}
