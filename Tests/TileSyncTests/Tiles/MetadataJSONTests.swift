import Foundation
import Testing
@testable import TileSync

@Suite("metadata.json")
struct MetadataJSONTests {
    @Test("Keeps key order, NULL values, unicode and escapes through a round trip")
    func roundTrip() throws {
        var metadata = TileMetadata()
        metadata["name"] = "Zürich \"tiles\"\n"
        metadata["minzoom"] = "0"
        metadata.setNull("formatter")
        metadata["json"] = "{\"a\":[1,2]}"
        let encoded = MetadataJSON.encode(metadata)
        #expect(String(decoding: encoded, as: UTF8.self) == """
            {
              "name": "Zürich \\"tiles\\"\\n",
              "minzoom": "0",
              "formatter": null,
              "json": "{\\"a\\":[1,2]}"
            }

            """)
        let decoded = try MetadataJSON.decode(encoded)
        #expect(decoded == metadata)
        #expect(decoded.keys == ["name", "minzoom", "formatter", "json"])
        #expect(decoded.contains("formatter") && decoded["formatter"] == nil)
    }

    @Test("Reads TileJSON: numbers as written, bounds and center arrays joined, objects as JSON text")
    func tileJSON() throws {
        let text = #"{"tilejson":"3.0.0","minzoom":0,"maxzoom":14.0,"bounds":[-180,-85.05,180,85.05],"center":[0,0,2],"vector_layers":[{"id":"water"}],"private":false}"#
        let metadata = try MetadataJSON.decode(Data(text.utf8))
        #expect(metadata["minzoom"] == "0")
        #expect(metadata["maxzoom"] == "14.0")
        #expect(metadata.maxZoom == nil)
        #expect(metadata["bounds"] == "-180,-85.05,180,85.05")
        #expect(metadata.bounds?.description == "-180,-85.05,180,85.05")
        #expect(metadata["center"] == "0,0,2")
        #expect(metadata["vector_layers"] == #"[{"id":"water"}]"#)
        #expect(metadata["private"] == "false")
    }

    @Test("Rejects malformed and hostile documents with the byte offset")
    func malformed() {
        #expect(throws: JSONError(reason: "expected a JSON object", offset: 0)) { try MetadataJSON.decode(Data("[1]".utf8)) }
        #expect(throws: JSONError(reason: "an unterminated string", offset: 7)) { try MetadataJSON.decode(Data(#"{"a":"b"#.utf8)) }
        #expect(throws: JSONError(reason: "text after the JSON value", offset: 3)) { try MetadataJSON.decode(Data("{} x".utf8)) }
        let deep = "{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: JSONError(reason: "nesting deeper than 64", offset: 68)) { try MetadataJSON.decode(Data(deep.utf8)) }
        #expect(throws: JSONError.self) { try MetadataJSON.decode(Data([0x7B, 0x22, 0xFF, 0x22])) }
    }
}
