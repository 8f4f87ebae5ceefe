import Foundation
import Testing
@testable import TileSync

@Suite("Deduplicating writers")
struct DedupTests {
    /// 85 tiles of which every tile at zoom 3 with an even column repeats one of two blobs.
    static func repeatingTiles() -> [Tile] {
        GeneratedStore.pyramid(maxZoom: 3).map { tile in
            guard tile.coordinate.z == 3, tile.coordinate.x % 2 == 0 else { return tile }
            return Tile(coordinate: tile.coordinate, data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, UInt8(tile.coordinate.y % 2)]))
        }
    }

    static func convert(_ source: String, _ destination: String, configure: (inout TileStoreOptions) -> Void) throws -> TileConverter.Summary {
        var options = TileStoreOptions()
        configure(&options)
        return try TileConverter.convert(from: try TileStoreLocation(parsing: source), to: try TileStoreLocation(parsing: destination, options: options))
    }

    @Test("Every conversion counts distinct blobs and what dedup saves")
    func counts() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(Self.repeatingTiles(), to: directory.file("a.mbtiles"))
        let plain = try Self.convert(directory.file("a.mbtiles"), directory.file("plain")) { _ in }
        #expect(plain.tilesWritten == 85)
        #expect(plain.distinctBlobs == 55)
        #expect(plain.duplicateTiles == 30)
        #expect(plain.duplicateBytes == 30 * 9)
        #expect(plain.bytesSaved == 0)
        let deduplicated = try Self.convert(directory.file("a.mbtiles"), directory.file("dedup")) { $0.deduplicate = true }
        #expect(deduplicated.bytesSaved == 270)
    }

    @Test("A deduplicated folder hard-links repeats; every path still reads its bytes")
    func folderLinks() throws {
        let directory = try TemporaryDirectory()
        let tiles = Self.repeatingTiles()
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        _ = try Self.convert(directory.file("a.mbtiles"), directory.file("out")) { $0.deduplicate = true }
        var linkCounts: [Int: Int] = [:]
        for tile in tiles {
            let path = directory.file("out/" + PathTemplate.xyz.path(for: tile.coordinate, fileExtension: "png"))
            #expect(FileManager.default.contents(atPath: path) == tile.data)
            let links = (try FileManager.default.attributesOfItem(atPath: path)[.referenceCount] as? NSNumber)?.intValue ?? 0
            linkCounts[links, default: 0] += 1
        }
        #expect(linkCounts == [1: 53, 16: 32])
    }

    @Test("A deduplicated tar stores link entries; GNU tar -x and TileSync both restore every tile")
    func tarLinks() throws {
        let directory = try TemporaryDirectory()
        let tiles = Self.repeatingTiles()
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        _ = try Self.convert(directory.file("a.mbtiles"), directory.file("out.tar")) { $0.deduplicate = true }
        _ = try Self.convert(directory.file("a.mbtiles"), directory.file("plain.tar")) { _ in }
        let archive = try ArchiveFileReader(path: directory.file("out.tar"))
        var kinds: [String: Int] = [:]
        while let header = try archive.nextEntry() {
            if case .hardLink = header.kind { kinds["link", default: 0] += 1 } else { kinds["file", default: 0] += 1 }
        }
        #expect(kinds == ["file": 56, "link": 30])
        let dedupSize = FileBytes.size(directory.file("out.tar")) ?? 0
        let plainSize = FileBytes.size(directory.file("plain.tar")) ?? 0
        #expect(dedupSize < plainSize)

        let expected = Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) })
        #expect(try StoreContents.tiles(directory.file("out.tar")) == expected)
        #expect(try TarReader(location: TileStoreLocation(kind: .tar, address: directory.file("out.tar"))).summary(matching: .all).byteCount
            == tiles.reduce(0) { $0 + $1.data.count })

        try FileManager.default.createDirectory(atPath: directory.file("x"), withIntermediateDirectories: true)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-xf", directory.file("out.tar"), "-C", directory.file("x")]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        for tile in tiles {
            let path = directory.file("x/" + PathTemplate.xyz.path(for: tile.coordinate, fileExtension: "png"))
            #expect(FileManager.default.contents(atPath: path) == tile.data, "\(tile.coordinate)")
        }
    }

    @Test("A hard link to an entry that is not in the archive is skipped and named, never followed")
    func danglingLink() throws {
        let directory = try TemporaryDirectory()
        let writer = try ArchiveFileWriter(path: directory.file("a.tar"), compression: .none)
        try writer.writeFile(path: "0/0/0.png", data: GeneratedStore.bytes(for: TileCoordinate(z: 0, x: 0, y: 0)), modificationTime: 0)
        try writer.writeHardLink(path: "1/0/0.png", target: "1/9/9.png", modificationTime: 0)
        try writer.writeHardLink(path: "1/0/1.png", target: "0/0/0.png", modificationTime: 0)
        try writer.close()
        let reader = try TarReader(location: TileStoreLocation(kind: .tar, address: directory.file("a.tar")))
        let cursor = try reader.tiles(matching: .all)
        var tiles: [String] = []
        while let tile = try cursor.next() { tiles.append(tile.coordinate.description) }
        #expect(tiles == ["0/0/0", "1/0/1"])
        #expect(cursor.skipped.named == [.init(item: "entry '1/0/0.png'", reason: "hard link to '1/9/9.png', which is no tile entry of this archive")])
        #expect(try reader.tile(at: TileCoordinate(z: 1, x: 0, y: 1)) == GeneratedStore.bytes(for: TileCoordinate(z: 0, x: 0, y: 0)))
    }

    @Test("A coordinate repeated with new bytes does not change its earlier links", arguments: ["out", "out.tar", "out.mbtiles"])
    func rewrittenOriginal(destination: String) throws {
        let directory = try TemporaryDirectory()
        let first = try TileCoordinate(z: 1, x: 0, y: 0), second = try TileCoordinate(z: 1, x: 1, y: 0)
        let blob = GeneratedStore.bytes(for: first), other = GeneratedStore.bytes(for: second)
        let writer = try ArchiveFileWriter(path: directory.file("a.tar"), compression: .none)
        try writer.writeFile(path: "1/0/0.png", data: blob, modificationTime: 0)
        try writer.writeFile(path: "1/1/0.png", data: blob, modificationTime: 0)
        try writer.writeFile(path: "1/0/0.png", data: other, modificationTime: 0)
        try writer.close()
        _ = try Self.convert(directory.file("a.tar"), directory.file(destination)) {
            $0.deduplicate = !destination.hasSuffix(".mbtiles")
            $0.mbtilesSchema = .normalized
        }
        #expect(try StoreContents.tiles(directory.file(destination)) == [first: other, second: blob])
    }
}
