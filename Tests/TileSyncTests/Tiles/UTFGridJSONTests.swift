import Foundation
import Testing
@testable import TileSync

@Suite("UTFGrid JSON: one canonical form from every spelling, MBTiles rows and back")
struct UTFGridJSONTests {
    static let canonical = #"{"data":{"1":{"NAME":"Åland","pop":1.50},"2":{"NAME":"\"Q\" \\ /"}},"grid":["  !!","!!##"],"keys":["","1","2"]}"#

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("Callbacks, spacing, escapes and key order all give the same bytes")
    func spellings() throws {
        let spellings = [
            Self.canonical,
            "grid(" + Self.canonical + ");",
            "grid(" + Self.canonical + ")",
            "  my_cb.x$1 ( " + Self.canonical + " ) ; \n",
            "var grids = grid(" + Self.canonical + ");",
            #"{ "keys" : ["","1","2"], "grid":["  !!","!!##"],"data":{"2":{"NAME":"\"Q\" \\ \/"},"1":{"pop":1.50,"NAME":"\u00c5land"}} }"#,
            #"{"grid":["  !!","!!##"],"keys":["","1","2"],"data":{"1":{"NAME":"x","pop":1.50},"2":{"NAME":"\"Q\" \\ /"},"1":{"NAME":"Åland","pop":1.50}}}"#,
        ]
        for spelling in spellings {
            #expect(try Self.text(UTFGridJSON.canonical(document: Array(spelling.utf8))) == Self.canonical, "\(spelling)")
        }
        #expect(try Self.text(UTFGridJSON.canonical(document: Array(#"{"grid":[" "],"keys":[""],"data":null}"#.utf8)))
            == #"{"data":{},"grid":[" "],"keys":[""]}"#)
        #expect(try Self.text(UTFGridJSON.canonical(document: Array(#"{"grid":[" "],"keys":[""],"extra":[1,true,null,-2.5e3]}"#.utf8)))
            == #"{"data":{},"extra":[1,true,null,-2.5e3],"grid":[" "],"keys":[""]}"#)
        #expect(try Self.text(UTFGridJSON.canonical(document: Array("{\"grid\":[\"\\u0001\\ud83d\\ude00\"],\"keys\":[]}".utf8)))
            == "{\"data\":{},\"grid\":[\"\\u0001😀\"],\"keys\":[]}")
    }

    @Test("MBTiles keeps data apart: split and joined again gives the same grid")
    func mbtilesRows() throws {
        let json = try UTFGridJSON.canonical(document: Array(Self.canonical.utf8))
        let (grid, data) = UTFGridJSON.split(json)
        #expect(Self.text(grid) == #"{"grid":["  !!","!!##"],"keys":["","1","2"]}"#)
        #expect(data.map(\.key) == ["1", "2"])
        #expect(data.map(\.json) == [#"{"NAME":"Åland","pop":1.50}"#, #"{"NAME":"\"Q\" \\ /"}"#])
        #expect(try UTFGridJSON.canonical(grid: Array(grid), data: data) == json)
        #expect(try UTFGridJSON.canonical(grid: Array(#"{"grid":[],"keys":[],"data":{"gone":1}}"#.utf8), data: [("k", "5")]) == Data(#"{"data":{"k":5},"grid":[],"keys":[]}"#.utf8))
        #expect(UTFGridJSON.document(json, callback: "grid") == Data(("grid(" + Self.canonical + ");").utf8))
        #expect(UTFGridJSON.document(json, callback: "") == json)
    }

    @Test("What is not a grid is refused with the reason", arguments: [
        ("", "not a JSON object or a callback(...) around one"),
        ("[1]", "not a JSON object or a callback(...) around one"),
        ("grid({\"grid\":[],\"keys\":[]}", "the callback 'grid(' is not closed"),
        ("{\"keys\":[]}", "has no 'grid' array"),
        ("{\"grid\":\"x\",\"keys\":[]}", "has no 'grid' array"),
        ("{\"grid\":[]}", "has no 'keys' array"),
        ("{\"grid\":[],\"keys\":[],\"data\":[]}", "its data is not a JSON object"),
        ("{\"grid\":,\"keys\":[]}", "not JSON: expected a value at byte 8"),
        ("{\"grid\":[01],\"keys\":[]}", "not JSON: a number with a leading zero at byte 11"),
        ("{\"grid\":[\"\\ud800\"],\"keys\":[]}", "not JSON: a lone surrogate at byte 16"),
        ("{\"grid\":[\"a\nb\"],\"keys\":[]}", "not JSON: a control character in a string at byte 11"),
        ("{\"grid\":[],\"keys\":[]} x", "not JSON: text after the JSON value at byte 22"),
        (String(repeating: "[", count: 100), "not a JSON object or a callback(...) around one"),
        ("{\"grid\":" + String(repeating: "[", count: 100) + "],\"keys\":[]}", "not JSON: nesting deeper than 64 at byte 71"),
    ])
    func refused(_ document: String, reason: String) {
        #expect(throws: UTFGrid.FormatError(reason: reason)) { try UTFGridJSON.canonical(document: Array(document.utf8)) }
    }

    @Test("A key_json that is not JSON names its key")
    func badKeyJSON() {
        #expect(throws: UTFGrid.FormatError(reason: "the key_json of key 'k' is not JSON: expected a value at byte 0")) {
            try UTFGridJSON.canonical(grid: Array(#"{"grid":[],"keys":[]}"#.utf8), data: [("k", "nope")])
        }
    }
}
