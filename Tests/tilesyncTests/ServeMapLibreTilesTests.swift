import Foundation
import Testing
@testable import TileSync

@Suite("serve: MapLibre Tiles under their own type, extension and encoding", .enabled(if: CurlResponse.available, "curl not found: SKIPPED"))
final class ServeMapLibreTilesTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "tilesync-serve-mlt-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test("A store declaring MLT: tiles at .mlt as application/vnd.maplibre-vector-tile, TileJSON with format and encoding mlt and its vector_layers")
    func mapLibreTiles() throws {
        var metadata = TileMetadata()
        metadata["name"] = "m"
        metadata["format"] = "application/vnd.maplibre-vector-tile"
        metadata["json"] = #"{"vector_layers":[{"id":"roads","fields":{}}]}"#
        let writer = try TileStoreLocation(parsing: directory + "/m.mbtiles").makeWriter()
        try writer.begin(metadata: metadata, format: SniffedTileFormat(.mlt))
        let bytes = Data([0x1A, 0x01, 0x02, 0x03])
        try writer.write(Tile(coordinate: TileCoordinate(unchecked: 1, 1, 0), data: bytes))
        try writer.finish()
        let server = try ServeProcess(["m.mbtiles"], in: directory)
        let tile = try CurlResponse.get(server.base + "/m/1/1/0.mlt")
        #expect(tile.status == 200 && tile.body == bytes)
        #expect(tile.headers["content-type"] == "application/vnd.maplibre-vector-tile" && tile.headers["content-encoding"] == nil)
        #expect(try CurlResponse.get(server.base + "/m/1/1/0.pbf").status == 404)
        let json = try #require(try JSONSerialization.jsonObject(with: CurlResponse.get(server.base + "/m.json").body) as? [String: Any])
        #expect(json["format"] as? String == "mlt" && json["encoding"] as? String == "mlt")
        #expect(json["tiles"] as? [String] == [server.base + "/m/{z}/{x}/{y}.mlt"])
        #expect((json["vector_layers"] as? [[String: Any]])?.map { $0["id"] as? String } == ["roads"])
        #expect(server.stop().status == 0)
    }
}
