import Foundation
import Testing
@testable import TileSync

@Suite("The async library: reads off the cooperative pool, operations that stop at Task cancellation")
struct AsyncOperationTests {
    @Test("TileSource.loadTile reads on a Dispatch thread: many reads at once from tasks, each the right bytes")
    func asyncReads() async throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 4)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let source = try await TileSource.open(path: directory.file("a.mbtiles"))
        let found = try await withThrowingTaskGroup(of: (TileCoordinate, Data?).self) { group in
            for tile in tiles { group.addTask { (tile.coordinate, try await source.loadTile(at: tile.coordinate)) } }
            var found: [TileCoordinate: Data] = [:]
            for try await (coordinate, data) in group { found[coordinate] = data }
            return found
        }
        #expect(found == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        #expect(try await source.loadTile(z: 4, x: 15, y: 15) == GeneratedStore.bytes(for: try TileCoordinate(z: 4, x: 15, y: 15)))
        #expect(try await source.loadTile(z: 5, x: 0, y: 0) == nil)
    }

    @Test("convert async: the summary, and the progress sequence ends with every tile")
    func convertWithProgress() async throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 5), to: directory.file("a.mbtiles"))
        let conversion = TileConverter.conversion(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")),
                                                  to: try TileStoreLocation(parsing: directory.file("b.pmtiles")))
        var last: TileConverter.Progress?
        for await progress in conversion.progress { last = progress }
        let summary = try await conversion.value
        #expect(summary.tilesWritten == 1365)
        #expect(last?.tilesDone == 1365)
        #expect(try StoreContents.tiles(directory.file("b.pmtiles")).count == 1365)
    }

    @Test("Cancelling the task of a running conversion stops it and leaves no destination")
    func cancelledConversion() async throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 8), to: directory.file("a.mbtiles"))
        let source = try TileStoreLocation(parsing: directory.file("a.mbtiles"))
        let destination = try TileStoreLocation(parsing: directory.file("b.mbtiles"))
        let started = AsyncStream.makeStream(of: Void.self)
        var options = TileConverter.Options()
        let polls = Counter()
        let cancelled = DispatchSemaphore(value: 0)
        // The run stops at its tenth poll until the task is cancelled, so the cancel lands
        // mid-copy however busy the machine is.
        options.isCancelled = {
            if polls.increment() == 10 {
                started.continuation.yield()
                cancelled.wait()
            }
            return false
        }
        let task = Task { try await TileConverter.convert(from: source, to: destination, options: options) }
        for await _ in started.stream { break }
        task.cancel()
        cancelled.signal()
        let error = await #expect(throws: TileStoreError.self) { try await task.value }
        #expect(error?.kind == .interrupted)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.mbtiles"])
    }

    @Test("sync, verify and apply have async forms with progress; a cancelled sync changes nothing")
    func syncVerifyApply() async throws {
        let stores = try KindStores()
        let (a, b) = try SyncPairTests.stores(stores, source: "mbtiles", destination: "dir")
        let before = try stores.tiles(b)
        let cancelled = TileSynchronizer.synchronization(from: a, to: b)
        cancelled.cancel()
        await #expect(throws: TileStoreError.self) { try await cancelled.value }
        #expect(cancelled.isCancelled)
        #expect(try stores.tiles(b) == before)

        var options = TileSynchronizer.Options()
        options.delete = true
        let sync = TileSynchronizer.synchronization(from: a, to: b, options: options)
        var decided = 0
        for await progress in sync.progress { decided = progress.entriesDecided }
        let summary = try await sync.value
        #expect((summary.added, summary.replaced, summary.deleted) == (2, 2, 2))
        #expect(decided == 6)
        let verification = StoreVerifier.verification(of: b)
        var checked = 0
        for await count in verification.progress { checked = count }
        let report = try await verification.value
        #expect(report.tilesChecked == 85 && report.counts == [:])
        #expect(checked == 0 || checked == 85)

        let (base, target) = try PatchPairTests.stores(stores, base: "mbtiles", target: "dir")
        let patch = stores.directory.file("patch.mbtiles")
        _ = try await TilePatcher.makePatch(from: base, to: target, writingTo: patch)
        let application = TilePatcher.application(of: patch, to: base)
        var made = 0
        for await count in application.progress { made = count }
        let applied = try await application.value
        #expect((applied.added, applied.replaced, applied.deleted) == (2, 2, 2))
        #expect(made == 6)
        #expect(try await StoreVerifier.verify(base).counts == [:])
    }
}
