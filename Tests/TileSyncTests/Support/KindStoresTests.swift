import Foundation
import Testing
@testable import TileSync

@Suite("The pair matrices cover the registry")
struct KindStoresTests {
    @Test("Every kind of TileStoreRegistry.standard has an address and round-trips a tile", arguments: KindStores.kindNames)
    func everyKind(kind: String) throws {
        let stores = try KindStores()
        let tile = try TileCoordinate(z: 2, x: 1, y: 3)
        let location = try stores.write([Tile(coordinate: tile, data: GeneratedStore.bytes(for: tile))], kind: kind, name: "one")
        #expect(location.kind.name == kind)
        #expect(try stores.tiles(location) == [tile: GeneratedStore.bytes(for: tile)])
    }

    @Test("The matrices run the registry's writable kinds: all 36 ordered pairs of today's six where rclone is installed")
    func pairCount() {
        let registry = TileStoreRegistry.standard.kinds.filter(\.capabilities.isWritable).map(\.name)
        #expect(registry == ["mbtiles", "dir", "tar", "pmtiles", "s3", "gpkg"])
        #expect(TileStoreRegistry.standard.kinds.filter { !$0.capabilities.isWritable }.map(\.name) == ["tileserver"])
        #expect(KindStores.kindNames == (S3TestServer.available ? registry : registry.filter { $0 != "s3" }))
    }
}
