import Foundation
import Testing
@testable import TileSync

@Suite("An app's TileSource keeps reading while a patch is applied to its MBTiles")
struct TileSourcePatchTests {
    struct Observations {
        var mixedSnapshots = 0
        var oldSnapshots = 0
        var newSnapshots = 0
        var foreignReads = 0
        var errors: [String] = []
    }

    @Test("Each snapshot sees all old tiles or all new ones, each read one or the other, and the patch commits (also with reads held for 10 ms, as the server does)",
          arguments: [0, 0.01])
    func readsDuringApply(heldReadSeconds: Double) throws {
        let directory = try TemporaryDirectory()
        let basePath = directory.file("app.mbtiles"), targetPath = directory.file("update.mbtiles")
        let pyramid = GeneratedStore.pyramid(maxZoom: 4)
        let newBytes: @Sendable (TileCoordinate) -> Data = { GeneratedStore.bytes(for: $0, salt: "update") }
        try GeneratedStore.write(pyramid, to: basePath)
        try GeneratedStore.write(pyramid.map { Tile(coordinate: $0.coordinate, data: newBytes($0.coordinate)) }, to: targetPath)
        let patch = directory.file("patch.mbtiles")
        let base = try TileStoreLocation(parsing: basePath)
        _ = try TilePatcher.makePatch(from: base, to: try TileStoreLocation(parsing: targetPath), writingTo: patch)

        let source = try TileSource(location: try TileStoreLocation(parsing: basePath), heldReadSeconds: heldReadSeconds)
        let coordinates = pyramid.map(\.coordinate)
        let observations = LockedValue(Observations())
        let applied = LockedValue(false)
        let group = DispatchGroup()
        for reader in 0..<3 {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                Self.readUntilApplied(reader: reader, source: source, coordinates: coordinates, newBytes: newBytes,
                                      observations: observations, applied: applied)
            }
            thread.start()
        }
        let deadline = Date().addingTimeInterval(30)
        while observations.withLock({ $0.oldSnapshots < 4 && $0.errors.isEmpty }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(observations.withLock { $0.oldSnapshots } >= 4, "the readers saw the old store before the patch")
        let summary = try TilePatcher.apply(patch: patch, to: base)
        applied.withLock { $0 = true }
        group.wait()

        #expect(summary.replaced == coordinates.count)
        let seen = observations.withLock { $0 }
        #expect(seen.errors == [])
        #expect(seen.mixedSnapshots == 0)
        #expect(seen.foreignReads == 0)
        #expect(seen.oldSnapshots > 0)
        #expect(seen.newSnapshots > 0)
        Thread.sleep(forTimeInterval: heldReadSeconds * 3)
        #expect(try source.tile(at: coordinates[0]) == newBytes(coordinates[0]))
    }

    /// One reader's loop: reader 0 reads tile by tile, the others take snapshots; three rounds
    /// after the patch is applied it stops.
    private static func readUntilApplied(reader: Int, source: TileSource, coordinates: [TileCoordinate],
                                         newBytes: @Sendable (TileCoordinate) -> Data,
                                         observations: LockedValue<Observations>, applied: LockedValue<Bool>) {
        var roundsAfterApply = 0
        while roundsAfterApply < 3 {
            if applied.withLock({ $0 }) { roundsAfterApply += 1 }
            do {
                if reader == 0 {
                    for coordinate in coordinates {
                        let data = try source.tile(at: coordinate)
                        if data != GeneratedStore.bytes(for: coordinate) && data != newBytes(coordinate) {
                            observations.withLock { $0.foreignReads += 1 }
                        }
                    }
                    continue
                }
                let versions = try source.withSnapshot { snapshot in
                    try Set(coordinates.map { coordinate -> Int in
                        let data = try snapshot.tile(at: coordinate)
                        return data == GeneratedStore.bytes(for: coordinate) ? 1 : data == newBytes(coordinate) ? 2 : 0
                    })
                }
                observations.withLock { seen in
                    if versions == [1] { seen.oldSnapshots += 1 } else if versions == [2] { seen.newSnapshots += 1 } else { seen.mixedSnapshots += 1 }
                }
            } catch {
                observations.withLock { $0.errors.append("\(error)") }
            }
        }
    }

    @Test("Held reads: a read after the held period sees a change another connection committed; a writer is not kept waiting by an idle pool")
    func heldReadsExpire() throws {
        let directory = try TemporaryDirectory()
        let basePath = directory.file("held.mbtiles"), newPath = directory.file("new.mbtiles")
        let pyramid = GeneratedStore.pyramid(maxZoom: 2)
        try GeneratedStore.write(pyramid, to: basePath)
        try GeneratedStore.write(pyramid.map { Tile(coordinate: $0.coordinate, data: GeneratedStore.bytes(for: $0.coordinate, salt: "new")) }, to: newPath)
        let base = try TileStoreLocation(parsing: basePath)
        let source = try TileSource(location: base, heldReadSeconds: 0.05)
        let first = pyramid[0].coordinate
        #expect(try source.tile(at: first) == GeneratedStore.bytes(for: first))
        let started = Date()
        _ = try TileSynchronizer.sync(from: try TileStoreLocation(parsing: newPath), to: base)
        #expect(Date().timeIntervalSince(started) < 2, "the pool's idle view was released by its timer")
        Thread.sleep(forTimeInterval: 0.15)
        #expect(try source.tile(at: first) == GeneratedStore.bytes(for: first, salt: "new"))
    }
}
