import Foundation
import Testing

@Suite("tilesync info --stats end to end")
struct InfoStatsEndToEndTests {
    static let sample = ToolRunner.packageRoot.appendingPathComponent("Samples/world.mbtiles").path

    @Test("The bundled sample: the table per zoom, the largest tiles, repeated contents unknown without hashes; JSON alike")
    func sample() throws {
        let text = try ToolRunner.run(["info", Self.sample, "--stats"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 9)
        #expect(lines[1] == "zoom  tiles  bytes  min  median  p90  p99  max")
        #expect(lines[6] == " all     85  58803  569     719  725  729  729")
        #expect(lines[7].hasPrefix("largest: 1/0/1 (729 B), "))
        #expect(lines[8] == "repeated contents: not known without reading every tile (the store keeps no hashes)")
        let json = try ToolRunner.run(["info", Self.sample, "--stats", "--sizes-only", "--json"])
        #expect(json.stdout.contains(#""total":{"zoom":null,"tiles":85,"bytes":58803,"min":569,"median":719,"p90":725,"p99":729,"max":729}"#))
        #expect(json.stdout.hasSuffix(#""repeated_tiles":null,"layers":[],"undecoded_tiles":0}"# + "\n"))
        let misuse = try ToolRunner.run(["info", Self.sample, "--sizes-only"])
        #expect(misuse.status == 2 && misuse.stderr.hasPrefix("Error: --sizes-only goes with --stats"))
    }
}
