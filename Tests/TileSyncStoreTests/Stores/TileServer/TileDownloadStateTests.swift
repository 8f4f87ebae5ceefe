import Foundation
import Testing
@testable import TileSync

@Suite("Tile servers: the download state kept beside a destination")
struct TileDownloadStateTests {
    func temporaryPath() -> String {
        NSTemporaryDirectory() + "tilesync-downloads-" + UUID().uuidString
    }

    @Test("the steps: fresh tiles taken, stale ones asked conditionally, holes kept until they expire, an unfinished download's tiles taken")
    func steps() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-partial"] { AtomicFile.remove(path + suffix) } }
        let now: Int64 = 2_000_000_000
        let fresh = try TileCoordinate(z: 3, x: 1, y: 2), stale = try TileCoordinate(z: 3, x: 2, y: 2)
        let hole = try TileCoordinate(z: 3, x: 3, y: 2), expiredHole = try TileCoordinate(z: 3, x: 4, y: 2), unknown = try TileCoordinate(z: 3, x: 5, y: 2)
        let data = Data("tile bytes".utf8), hash = ContentHash(of: data)
        let staleValidators = TileServerValidators(etag: "\"e1\"", lastModified: "Sun, 09 Sep 2001 01:46:40 GMT", expiry: nil)
        do {
            let state = try #require(try TileDownloadState(path: path, source: "http://h/{z}/{x}/{y}.png", revalidate: false, recording: true))
            try state.remember(data, hash: hash, at: fresh, validators: TileServerValidators(etag: "\"e0\"", expiry: now + 10))
            try state.remember(data, hash: hash, at: stale, validators: staleValidators)
            try state.rememberHole(at: hole, validators: TileServerValidators())
            try state.rememberHole(at: expiredHole, validators: TileServerValidators(expiry: now - 1))
            #expect(state.step(for: stale, needsBytes: true, now: now) == .use(try #require(state.record(at: stale))), "this download's own")
            #expect(state.bytes(at: stale, record: try #require(state.record(at: stale))) == data)
            #expect(state.stamp(now: now) == nil, "unfinished")
            state.finish(keepingRecords: true)
            #expect(!AtomicFile.exists(path + "-partial"))
        }
        try continueSteps(path: path, now: now, fresh: fresh, stale: stale, hole: hole, expiredHole: expiredHole, unknown: unknown,
                          hash: hash, staleValidators: staleValidators)
        let revalidating = try #require(try TileDownloadState(path: path, source: "http://h/{z}/{x}/{y}.png", revalidate: true, recording: false))
        #expect(revalidating.step(for: fresh, needsBytes: false, now: now) == .ask(ifChanged: TileServerValidators(etag: "\"e0\"", expiry: now + 10)))
        #expect(revalidating.step(for: hole, needsBytes: false, now: now) == .ask(ifChanged: nil))
        #expect(revalidating.stamp(now: now) == nil)
    }

    /// A second run over the state the first left (its own connection, closed at the end).
    func continueSteps(path: String, now: Int64, fresh: TileCoordinate, stale: TileCoordinate, hole: TileCoordinate,
                       expiredHole: TileCoordinate, unknown: TileCoordinate, hash: ContentHash,
                       staleValidators: TileServerValidators) throws {
        let state = try #require(try TileDownloadState(path: path, source: "http://h/{z}/{x}/{y}.png", revalidate: false, recording: true))
        let freshRecord = try #require(state.record(at: fresh))
        #expect(freshRecord == TileDownloadRecord(size: 10, hash: hash, validators: TileServerValidators(etag: "\"e0\"", expiry: now + 10),
                                                  download: 1, inPartial: false))
        #expect(state.step(for: fresh, needsBytes: false, now: now) == .use(freshRecord))
        #expect(state.step(for: fresh, needsBytes: true, now: now) == .ask(ifChanged: nil), "fresh, but its bytes went with the partial store")
        #expect(state.step(for: fresh, needsBytes: false, now: now + 10) == .ask(ifChanged: TileServerValidators(etag: "\"e0\"", expiry: now + 10)))
        #expect(state.step(for: stale, needsBytes: false, now: now) == .ask(ifChanged: staleValidators))
        #expect(state.step(for: hole, needsBytes: true, now: now) == .skip)
        #expect(state.step(for: expiredHole, needsBytes: true, now: now) == .ask(ifChanged: nil))
        #expect(state.step(for: unknown, needsBytes: false, now: now) == .ask(ifChanged: nil))
        #expect(state.stamp(now: now) == nil, "a tile without an expiry is stale")

        let refreshed = try #require(try state.refresh(at: stale, validators: TileServerValidators(expiry: now + 60)))
        #expect(refreshed.validators == TileServerValidators(etag: "\"e1\"", lastModified: "Sun, 09 Sep 2001 01:46:40 GMT", expiry: now + 60))
        #expect(refreshed.download == 2 && !refreshed.inPartial)
        #expect(try state.refresh(at: hole, validators: TileServerValidators()) == nil)
        state.finish(keepingRecords: true)
        #expect(state.stamp(now: now) == nil, "a hole whose expiry passed is asked again")
        try state.rememberHole(at: expiredHole, validators: TileServerValidators(expiry: now + 100))
        #expect(state.record(at: expiredHole)?.download == 3)
        state.finish(keepingRecords: true)
        let stamp = try #require(state.stamp(now: now))
        #expect(state.stamp(now: now + 9) == stamp)
        #expect(state.stamp(now: now + 10) == nil, "the first tile expired")
        #expect(!AtomicFile.exists(path + "-journal"), "the journal goes when the download is finished")
    }

    @Test("a state of another source, a foreign file, and bytes that are not the ones recorded are not used")
    func hostileState() throws {
        let path = temporaryPath()
        defer { for suffix in ["", "-partial"] { AtomicFile.remove(path + suffix) } }
        let tile = try TileCoordinate(z: 1, x: 1, y: 0), data = Data("abc".utf8)
        do {
            let state = try #require(try TileDownloadState(path: path, source: "http://a/{z}/{x}/{y}.png", revalidate: false, recording: true))
            try state.remember(data, hash: ContentHash(of: data), at: tile, validators: TileServerValidators(expiry: Int64.max))
        }
        #expect(try TileDownloadState(path: path, source: "http://b/{z}/{x}/{y}.png", revalidate: false, recording: false) == nil)
        do {
            let state = try #require(try TileDownloadState(path: path, source: "http://a/{z}/{x}/{y}.png", revalidate: false, recording: false))
            let record = try #require(state.record(at: tile))
            #expect(state.bytes(at: tile, record: record) == data)
        }
        try SQLiteConnection(path: path + "-partial", mode: .readWrite).execute("UPDATE body SET data = x'616263ff'")
        do {
            let state = try #require(try TileDownloadState(path: path, source: "http://a/{z}/{x}/{y}.png", revalidate: false, recording: false))
            #expect(state.bytes(at: tile, record: try #require(state.record(at: tile))) == nil, "other bytes than recorded")
        }
        try SQLiteConnection(path: path, mode: .readWrite).execute("UPDATE tile SET size = -5")
        do {
            let state = try #require(try TileDownloadState(path: path, source: "http://a/{z}/{x}/{y}.png", revalidate: false, recording: false))
            #expect(state.record(at: tile) == nil, "a row no download writes")
        }
        do {
            let other = try #require(try TileDownloadState(path: path, source: "http://b/{z}/{x}/{y}.png", revalidate: false, recording: true))
            #expect(other.record(at: tile) == nil)
            #expect(!AtomicFile.exists(path + "-partial"))
        }
        do {
            let running = try #require(try TileDownloadState(path: path, source: "http://b/{z}/{x}/{y}.png", revalidate: false, recording: true))
            try running.rememberHole(at: tile, validators: TileServerValidators())
            #expect(try TileDownloadState(path: path, source: "http://b/{z}/{x}/{y}.png", revalidate: false, recording: false) == nil,
                    "a dry run does without a state a running download holds")
            #expect(throws: TileStoreError.self, "a second download into the same destination is refused") {
                try TileDownloadState(path: path, source: "http://b/{z}/{x}/{y}.png", revalidate: false, recording: true)
            }
        }
        try Data("not a database, only text that goes on for a while".utf8).write(to: URL(fileURLWithPath: path))
        let restarted = try #require(try TileDownloadState(path: path, source: "http://b/{z}/{x}/{y}.png", revalidate: false, recording: true))
        #expect(restarted.warnings == ["\(path): not a download state of TileSync; it was started anew"])
        #expect(restarted.record(at: tile) == nil)
        restarted.finish(keepingRecords: false)
        #expect(!AtomicFile.exists(path))
    }
}
