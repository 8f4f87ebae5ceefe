import Foundation
import Testing
@testable import TileSync

@Suite("Local files behind stores: version stamps, the same store under other names, where states live")
struct LocalFileResourceTests {
    @Test("A file's stamp is size:mtime:inode and changes when the file is replaced; a folder has none")
    func stamps() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.mbtiles")
        try Data("one".utf8).write(to: URL(fileURLWithPath: path))
        let resource = LocalFileResource(path: path, isFolder: false)
        let stamp = try #require(FileStamp(path: path))
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(resource.versionStamp == "3:\(stamp.modificationTime):\(info.st_ino)")
        try Data("three".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(resource.versionStamp != stamp.description)
        #expect(resource.versionStamp?.hasPrefix("5:") == true)
        #expect(LocalFileResource(path: directory.path, isFolder: true).versionStamp == nil)
        #expect(FileStamp(path: directory.file("missing")) == nil)
    }

    @Test("A hard link, a symbolic link and a path with dot segments are the same store; another file is not")
    func sameStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.mbtiles")
        try Data("tiles".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.linkItem(atPath: path, toPath: directory.file("hard.mbtiles"))
        try FileManager.default.createSymbolicLink(atPath: directory.file("soft.mbtiles"), withDestinationPath: path)
        try Data("other".utf8).write(to: URL(fileURLWithPath: directory.file("b.mbtiles")))
        let resource = LocalFileResource(path: path, isFolder: false)
        for alias in ["hard.mbtiles", "soft.mbtiles", "./x/../a.mbtiles"] {
            #expect(resource.refersToSameStore(as: LocalFileResource(path: directory.file(alias), isFolder: false)), "\(alias)")
        }
        #expect(!resource.refersToSameStore(as: LocalFileResource(path: directory.file("b.mbtiles"), isFolder: false)))
    }

    @Test("The sync state lives inside a folder and beside a file; downloads beside both")
    func statePaths() {
        let file = LocalFileResource(path: "/data/world.mbtiles", isFolder: false)
        let folder = LocalFileResource(path: "/data/tiles", isFolder: true)
        #expect(file.syncStatePath == "/data/.world.mbtiles.tilesync-state")
        #expect(folder.syncStatePath == "/data/tiles/.tilesync-state")
        #expect(file.downloadStatePath == "/data/.world.mbtiles.tilesync-downloads")
        #expect(folder.downloadStatePath == "/data/.tiles.tilesync-downloads")
    }
}
