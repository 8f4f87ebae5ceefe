import Foundation
import Synchronization
import Testing
@testable import TileSync

@Suite("Patch chains: apply P1 P2 P3 STORE checks every link first, then changes the store once")
struct PatchChainTests {
    /// Day n's tiles: the pyramid to zoom 2 with day-n bytes in column n, one tile fewer each day.
    static func day(_ n: Int) -> [Tile] {
        GeneratedStore.pyramid(maxZoom: 2).filter { !($0.coordinate.z == 2 && $0.coordinate.y == 3 && $0.coordinate.x < n) }.map { tile in
            tile.coordinate.z == 2 && tile.coordinate.x == n ? Tile(coordinate: tile.coordinate, data: GeneratedStore.bytes(for: tile.coordinate, salt: "day \(n)")) : tile
        }
    }

    /// A copy of day 0 and the three patches three daily syncs wrote.
    static func chain(_ stores: KindStores, kind: String) throws -> (copy: TileStoreLocation, today: TileStoreLocation, patches: [String]) {
        let published = try stores.write(Self.day(0), kind: "mbtiles", name: "published")
        let copy = try stores.write(Self.day(0), kind: kind, name: "copy")
        var patches: [String] = []
        for n in 1...3 {
            let source = try stores.write(Self.day(n), kind: "mbtiles", name: "day\(n)")
            var options = TileSynchronizer.Options()
            options.delete = true
            options.patchPath = stores.directory.file("day\(n).patch")
            _ = try TileSynchronizer.sync(from: source, to: published, options: options)
            patches.append(stores.directory.file("day\(n).patch"))
        }
        return (copy, published, patches)
    }

    @Test("Three patches of three syncs, applied in order to day 0's copy, give day 3's store", arguments: KindStores.kindNames)
    func inOrder(kind: String) throws {
        let stores = try KindStores()
        let (copy, today, patches) = try Self.chain(stores, kind: kind)
        let summary = try TilePatcher.apply(patches: patches, to: copy)
        #expect(try stores.tiles(copy) == stores.tiles(today))
        #expect(summary.patchPath == patches.joined(separator: " + "))
        #expect(summary.deleted == 3 && summary.added == 0)
        #expect(try TilePatcher.apply(patches: patches, to: copy).alreadyApplied)
    }

    @Test("A wrong order or a missing link is refused naming both patches and the hashes, the store unchanged")
    func refused() throws {
        let stores = try KindStores()
        let (copy, _, patches) = try Self.chain(stores, kind: "mbtiles")
        let before = try Data(contentsOf: URL(fileURLWithPath: copy.address))
        let readers = try patches.map { try PatchFileReader(path: $0) }
        let hashes = readers.map { ($0.beforeHash?.hex ?? "-", $0.afterHash?.hex ?? "-") }
        #expect {
            try TilePatcher.apply(patches: [patches[0], patches[2], patches[1]], to: copy)
        } throws: { error in
            (error as? TileStoreError)?.description == "\(patches[2]): was made for a store with agg_tiles_hash \(hashes[2].0), but \(patches[0]) before it gives \(hashes[0].1): a patch is missing between them, or they are out of order; nothing was changed (give the patches in the order they were made)"
        }
        #expect {
            try TilePatcher.apply(patches: [patches[1], patches[2]], to: copy)
        } throws: { error in
            (error as? TileStoreError)?.kind == .baseMismatch && (error as? TileStoreError)?.description.contains("the first patch \(patches[1])") == true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.address)) == before)
    }

    @Test("Another process changes the store while the chain is checked: refused with its change kept, or applied and its change on top")
    func changedMeanwhile() throws {
        let stores = try KindStores()
        let (copy, today, patches) = try Self.chain(stores, kind: "mbtiles")
        let day0 = try stores.tiles(copy), day3 = try stores.tiles(today)
        let otherBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x01])
        let checking = DispatchSemaphore(value: 0), written = DispatchSemaphore(value: 0)
        let signalled = Mutex(false)
        var options = TilePatcher.ApplyOptions()
        options.isCancelled = {
            if signalled.withLock({ first in defer { first = true }; return !first }) { checking.signal() }
            return false
        }
        let path = copy.address
        let other = Thread {
            checking.wait()
            let connection = try? SQLiteConnection(path: path, mode: .readWrite)
            try? connection?.execute("PRAGMA busy_timeout = 20000; UPDATE tiles SET tile_data = x'89504e470d0a1a0a01' WHERE zoom_level = 0")
            written.signal()
        }
        other.start()
        let zero = TileCoordinate(unchecked: 0, 0, 0)
        do {
            _ = try TilePatcher.apply(patches: patches, to: copy, options: options)
            written.wait()
            var expected = day3
            expected[zero] = otherBytes
            #expect(try stores.tiles(copy) == expected)
        } catch let error as TileStoreError {
            written.wait()
            #expect(error.message == "changed while the patch was checked; nothing was changed" || error.kind == .baseMismatch, "\(error)")
            var expected = day0
            expected[zero] = otherBytes
            #expect(try stores.tiles(copy) == expected)
        }
    }
}
