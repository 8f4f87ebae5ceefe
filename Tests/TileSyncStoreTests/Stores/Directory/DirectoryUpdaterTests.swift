import Foundation
import Testing
@testable import TileSync

@Suite("Folder updater: staged files are durable before the journal commits")
struct DirectoryUpdaterTests {
    @Test("A staged file is flushed before the journal commits (one flush of the file system, else each file)")
    func stagedFilesDurableBeforeCommit() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("tree")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: root)
        let updater = DirectoryUpdater(location: TileStoreLocation(kind: .directory, address: root), layout: nil)
        var seenAtFlush: (journalCommitted: Bool, staged: [String])?
        updater.flushFileSystem = { _ in
            seenAtFlush = (AtomicFile.exists(root + "/" + DirectoryUpdater.journalName),
                           ((try? FileManager.default.contentsOfDirectory(atPath: root + "/.tilesync-staging")) ?? []).sorted())
            return false
        }
        let tile = try TileCoordinate(z: 1, x: 1, y: 1)
        try updater.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        try updater.put(Tile(coordinate: tile, data: GeneratedStore.bytes(for: tile, salt: "new")), hash: .unknown, modificationTime: 0)
        try updater.finish()
        #expect(seenAtFlush?.journalCommitted == false)
        #expect(seenAtFlush?.staged == ["1", "2", "journal"])
        #expect(FileManager.default.contents(atPath: root + "/1/1/1.png") == GeneratedStore.bytes(for: tile, salt: "new"))
        #expect(!AtomicFile.exists(root + "/.tilesync-staging") && !AtomicFile.exists(root + "/" + DirectoryUpdater.journalName))
    }
}
