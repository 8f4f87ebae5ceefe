import Foundation
import Testing
@testable import TileSync

@Suite("sync --write-patch, read by the python readers: the patch turns yesterday's copy into the synced store, byte for byte",
       .enabled(if: PythonPMTiles.available, PythonPMTiles.missingMessage))
struct SyncPatchInteropTests {
    /// `z/x/y md5` per tile, sorted, as python reads an MBTiles (sqlite3, TMS rows flipped), a
    /// PMTiles (the `pmtiles` package) or a folder of `z/x/y.ext` files.
    static func pythonDump(_ path: String) throws -> [String] {
        let script = """
            import hashlib, os, sqlite3, sys
            path = sys.argv[1]
            lines = []
            md5 = lambda data: hashlib.md5(data).hexdigest().upper()
            if path.endswith(".mbtiles"):
                for z, x, row, data in sqlite3.connect(path).execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
                    lines.append("%d/%d/%d %s" % (z, x, (1 << z) - 1 - row, md5(data)))
            elif path.endswith(".pmtiles"):
                from pmtiles.reader import MmapSource, all_tiles
                with open(path, "rb") as f:
                    lines = ["%d/%d/%d %s" % (z, x, y, md5(data)) for (z, x, y), data in all_tiles(MmapSource(f))]
            else:
                for root, _, files in os.walk(path):
                    for name in files:
                        parts = os.path.relpath(os.path.join(root, name), path).split(os.sep)
                        if len(parts) == 3 and parts[0].isdigit():
                            with open(os.path.join(root, name), "rb") as f:
                                lines.append("%s/%s/%s %s" % (parts[0], parts[1], parts[2].split(".")[0], md5(f.read())))
            print("\\n".join(sorted(lines)))
            """
        let result = try PythonPMTiles.run(["-c", script, path])
        #expect(result.status == 0, "python could not read \(path)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("MBTiles, PMTiles and folder (dir) destinations: python reads the same tiles in the patched copy and the synced store",
          arguments: ["mbtiles", "pmtiles", "dir"])
    func patchedEqualsSynced(kind: String) throws {
        let stores = try KindStores()
        let base = GeneratedStore.pyramid(maxZoom: 2)
        let today = try stores.write(base, kind: kind, name: "today")
        let yesterday = try stores.write(base, kind: kind, name: "yesterday")
        let changed = SyncPatchTests.changedSource(base)
        let source = try stores.write(changed, kind: "mbtiles", name: "source")
        var options = TileSynchronizer.Options()
        options.delete = true
        options.patchPath = stores.directory.file("day.patch")
        let summary = try TileSynchronizer.sync(from: source, to: today, options: options)
        #expect(summary.patch != nil && summary.added == 1 && summary.deleted == 2)
        _ = try TilePatcher.apply(patch: stores.directory.file("day.patch"), to: yesterday)
        let synced = try Self.pythonDump(today.address)
        #expect(synced.count == changed.count && synced.count == 20)
        #expect(synced == changed.map { "\($0.coordinate) \(ContentHash(of: $0.data).hex)" }.sorted())
        let patched = try Self.pythonDump(yesterday.address)
        #expect(patched.count == 20 && patched == synced)
    }
}
