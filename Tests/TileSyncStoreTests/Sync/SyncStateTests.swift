import Foundation
import Testing
@testable import TileSync

@Suite("Sync, step by step: the state a sync leaves, written, read back and refused")
struct SyncStateTests {
    private static let identity = "source -> destination, zooms 0-30"

    private static func writeState(at path: String) throws {
        let writer = try SyncStateWriter(path: path)
        try writer.add(TileCoordinate(unchecked: 1, 1, 0), size: 3, hash: nil, sourceModificationTime: 1_700_000_000,
                       destinationModificationTime: 1_700_000_100, inSource: true)
        try writer.add(TileCoordinate(unchecked: 0, 0, 0), size: 5, hash: ContentHash(of: Data("world".utf8)),
                       sourceModificationTime: nil, destinationModificationTime: nil, inSource: true)
        try writer.add(TileCoordinate(unchecked: 1, 0, 1), size: 2, hash: nil, sourceModificationTime: nil,
                       destinationModificationTime: nil, inSource: false)
        try writer.record(TileCoordinate(unchecked: 1, 1, 0), hash: ContentHash(of: Data("new".utf8)), size: 3)
        try writer.finish(identity: identity, sourceStamp: "s1", destinationStamp: "d1")
    }

    @Test("Entries, counts, stamps and the recorded hashes read back; the source's index in order")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state")
        try Self.writeState(at: path)
        var warnings: [String] = []
        let state = try #require(SyncState.load(path: path, identity: Self.identity, warnings: &warnings))
        #expect(warnings == [])
        #expect(state.sourceStamp == "s1" && state.destinationStamp == "d1")
        #expect(state.count(inSource: true) == 2 && state.count(inSource: false) == 1)
        let written = try #require(try state.entry(at: TileCoordinate(unchecked: 1, 1, 0)))
        #expect(written.hash == ContentHash(of: Data("new".utf8)) && written.size == 3)
        #expect(written.sourceModificationTime == 1_700_000_000 && written.destinationModificationTime == 1_700_000_100)
        #expect(try state.entry(at: TileCoordinate(unchecked: 1, 0, 1))?.inSource == false)
        #expect(try state.entry(at: TileCoordinate(unchecked: 2, 0, 0)) == nil)
        #expect(try SyncStepTests.drain(state.index(order: .zoomColumnRow, sourceOnly: true)) == ["0/0/0 5", "1/1/0 3"])
        #expect(try SyncStepTests.drain(state.index(order: .zoomColumnRow, sourceOnly: false)) == ["0/0/0 5", "1/0/1 2", "1/1/0 3"])
    }

    @Test("Another identity is no state; a file that is not one is dropped with a warning naming it")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state")
        try Self.writeState(at: path)
        var warnings: [String] = []
        #expect(SyncState.load(path: path, identity: "other", warnings: &warnings) == nil)
        #expect(warnings == [])
        #expect(SyncState.load(path: directory.file("missing"), identity: Self.identity, warnings: &warnings) == nil)
        #expect(warnings == [])
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: directory.file("junk")))
        #expect(SyncState.load(path: directory.file("junk"), identity: Self.identity, warnings: &warnings) == nil)
        #expect(warnings.count == 1 && warnings[0].hasPrefix(directory.file("junk") + ": the sync state cannot be read"))
    }

    @Test("A row no sync writes is damage named by file and tile, found where it is read")
    func damagedRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("state")
        try Self.writeState(at: path)
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("UPDATE entry SET size = -4 WHERE z = 0")
        var warnings: [String] = []
        let state = try #require(SyncState.load(path: path, identity: Self.identity, warnings: &warnings))
        #expect(throws: SyncStateDamage.self) { try state.entry(at: TileCoordinate(unchecked: 0, 0, 0)) }
        do {
            _ = try state.entry(at: TileCoordinate(unchecked: 0, 0, 0))
        } catch let damage as SyncStateDamage {
            #expect(damage.path == path && damage.reason == "a row for tile 0/0/0 that no sync writes")
        }
    }

    @Test("A writer dropped before it finishes leaves no state and no temporary file")
    func unfinishedWriter() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = try SyncStateWriter(path: directory.file("state"))
            try writer.add(TileCoordinate(unchecked: 0, 0, 0), size: 1, hash: nil, sourceModificationTime: nil,
                           destinationModificationTime: nil, inSource: true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}
