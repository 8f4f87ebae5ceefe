import Foundation
import Testing
@testable import TileSync

@Suite("Sync: links inside a folder destination, times before 1970, a damaged sync state")
struct SyncSafetyTests {
    /// Every regular file under `root` (links not followed) and its bytes.
    static func files(under root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return files }
        for case let relative as String in enumerator {
            let path = root + "/" + relative
            guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular else { continue }
            files[relative] = FileManager.default.contents(atPath: path)
        }
        return files
    }

    @Test("sync never writes or deletes through a link inside a folder destination; the link becomes a real folder")
    func linkInsideDestination() throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        try GeneratedStore.write(tiles.filter { $0.coordinate.z != 2 }, to: directory.file("b"))
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: outside + "/1", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: outside + "/1/1.jpg", contents: Data("not a tile of b".utf8)))
        #expect(FileManager.default.createFile(atPath: outside + "/1/2.png", contents: Data("mine".utf8)))
        try FileManager.default.createSymbolicLink(atPath: directory.file("b/2"), withDestinationPath: outside)
        let before = Self.files(under: outside)

        var options = TileSynchronizer.Options()
        options.delete = true
        let summary = try TileSynchronizer.sync(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")),
                                                to: TileStoreLocation(kind: .directory, address: directory.file("b")), options: options)
        #expect(summary.added == 16)
        #expect(Self.files(under: outside) == before)
        let type = try FileManager.default.attributesOfItem(atPath: directory.file("b/2"))[.type] as? FileAttributeType
        #expect(type == .typeDirectory)
        #expect(try StoreContents.tiles(directory.file("b")) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
    }

    @Test("Files dated before 1970 sync between folders, new and existing, keeping their times")
    func filesBefore1970() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a"))
        let old: Int64 = -1_499_999_999
        #expect(FileTime.setModificationTime(old, path: directory.file("a/1/0/0.png")))
        let a = TileStoreLocation(kind: .directory, address: directory.file("a"))
        let b = TileStoreLocation(kind: .directory, address: directory.file("b"))
        #expect(try TileSynchronizer.sync(from: a, to: b).added == 5)
        #expect(FileStamp(path: directory.file("b/1/0/0.png"))?.modificationTime == old)
        #expect(FileManager.default.createFile(atPath: directory.file("a/1/0/0.png"), contents: Data([0x89, 0x50, 0x4E, 0x47, 1])))
        #expect(FileTime.setModificationTime(old - 86_400_000_000_000, path: directory.file("a/1/0/0.png")))
        #expect(try TileSynchronizer.sync(from: a, to: b).replaced == 1)
        #expect(FileStamp(path: directory.file("b/1/0/0.png"))?.modificationTime == old - 86_400_000_000_000)
        #expect(try TileSynchronizer.sync(from: a, to: b).isInSync)
        #expect(FileTime.timeSpec(nanoseconds: -1).tv_sec == -1 && FileTime.timeSpec(nanoseconds: -1).tv_nsec == 999_999_999)
    }

    @Test("A damaged or hostile sync state is dropped with a warning and rebuilt",
          arguments: ["garbage", "UPDATE entry SET z = 63 WHERE z = 1 AND x = 0 AND y = 0",
                      "UPDATE entry SET size = 9223372036854775807 WHERE z = 1", "DROP TABLE entry"])
    func hostileSyncState(damage: String) throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: directory.file("a.mbtiles"))
        let a = TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles"))
        let b = TileStoreLocation(kind: .mbtiles, address: directory.file("b.mbtiles"))
        #expect(try TileSynchronizer.sync(from: a, to: b).added == 21)
        let state = directory.file(".b.mbtiles.tilesync-state")
        if damage == "garbage" {
            #expect(FileManager.default.createFile(atPath: state, contents: Data(repeating: 0x5A, count: 4096)))
        } else {
            try SQLiteConnection(path: state, mode: .readWrite).execute(damage)
        }
        #expect(FileTime.setModificationTime(1_000_000_000, path: directory.file("b.mbtiles")))
        let summary = try TileSynchronizer.sync(from: a, to: b)
        #expect(summary.isInSync && summary.unchanged == 21)
        #expect(summary.warnings.count == 1)
        #expect(summary.warnings.first?.hasPrefix(state + ": the sync state ") == true)
        #expect(summary.warnings.first?.hasSuffix("; it was ignored and will be rebuilt") == true)
        let again = try TileSynchronizer.sync(from: a, to: b)
        #expect(again.quickCheckSkippedComparison && again.warnings.isEmpty)
    }
}
