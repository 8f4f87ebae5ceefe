import Foundation
import Testing
@testable import TileSync

/// Needs root to mount a 1 MB tmpfs; otherwise the suite is disabled with this reason.
@Suite("A full disk", .enabled(if: getuid() == 0, "full-disk tests need root to mount a small tmpfs: SKIPPED"))
struct FullDiskTests {
    /// Mounts a tmpfs of `megabytes` at a fresh folder, runs `body`, unmounts.
    static func withSmallDisk(megabytes: Int, _ body: (String) throws -> Void) throws {
        let mountPoint = NSTemporaryDirectory() + "tilesync-full-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", mountPoint]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "cannot mount a tmpfs here")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [mountPoint]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        try body(mountPoint)
    }

    /// 341 tiles of 8 KB: 2.8 MB, more than the 1 MB disk holds.
    static func bigTiles() -> [Tile] {
        GeneratedStore.pyramid(maxZoom: 4).map { tile in
            Tile(coordinate: tile.coordinate, data: tile.data + Data(repeating: UInt8(tile.coordinate.x % 251), count: 8192))
        }
    }

    @Test("convert fails with a disk-full error, the destination absent, no temporaries", arguments: ["out.mbtiles", "out", "out.tar"])
    func convertToFullDisk(destination: String) throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(Self.bigTiles(), to: directory.file("a.mbtiles"))
        try Self.withSmallDisk(megabytes: 1) { disk in
            let source = TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles"))
            let target = try TileStoreLocation(parsing: disk + "/" + destination)
            #expect {
                _ = try TileConverter.convert(from: source, to: target)
            } throws: { error in
                (error as? TileStoreError)?.kind == .limitExceeded
                    && (error as? TileStoreError)?.message.hasPrefix("341 tiles need about ") == true
                    && (error as? TileStoreError)?.message.hasSuffix(" bytes here, and its file system has 1048576 bytes free; nothing was written") == true
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty)
            // Past the check (--no-space-check), the write itself fails for space and cleans up.
            var options = TileConverter.Options()
            options.limits.checksFreeSpace = false
            #expect {
                _ = try TileConverter.convert(from: source, to: target, options: options)
            } throws: { error in
                (error as? TileStoreError)?.kind == .io && (error as? TileStoreError)?.hint == TileStoreError.diskFullHint
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: disk)
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("sync fails with a disk-full error and leaves the destination as it was", arguments: ["b.mbtiles", "b", "b.tar"])
    func syncToFullDisk(destination: String) throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(Self.bigTiles(), to: directory.file("a.mbtiles"))
        try Self.withSmallDisk(megabytes: 1) { disk in
            let target = try TileStoreLocation(parsing: disk + "/" + destination)
            try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: target.address)
            let before = try StoreContents.tiles(target.address)
            let source = TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles"))
            #expect {
                _ = try TileSynchronizer.sync(from: source, to: target)
            } throws: { ($0 as? TileStoreError)?.kind == .io }
            let after = try StoreContents.tiles(target.address)
            #expect(after == before)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: disk).filter { $0.contains(".tilesync-") && !$0.hasSuffix("tilesync-state") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }

    @Test("A write staged for the writing thread that fails after the commit is reported by writeStagedPages, as a full disk")
    func stagedWriteFailsLate() throws {
        try Self.withSmallDisk(megabytes: 1) { disk in
            let name = try #require(SQLiteStagedWriteVFS.name)
            let connection = try SQLiteConnection(path: disk + "/staged.sqlite", mode: .readWriteCreate, vfs: name)
            // A page cache larger than the data: every page is written at the commit, staged.
            try connection.execute("""
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192;
                CREATE TABLE rows (key INTEGER PRIMARY KEY, data BLOB); BEGIN;
                """)
            let insert = try connection.prepare("INSERT INTO rows (key, data) VALUES (?1, ?2)")
            for key in 0..<200 {
                try insert.bind(key, at: 1)
                try insert.bind(Data(repeating: UInt8(key), count: 10_000), at: 2)
                try insert.run()
            }
            try connection.execute("COMMIT")
            #expect {
                try connection.writeStagedPages()
            } throws: { error in
                (error as? SQLiteError)?.code == .full && (error as? SQLiteError)?.message == "write failed: No space left on device"
            }
        }
    }
}
