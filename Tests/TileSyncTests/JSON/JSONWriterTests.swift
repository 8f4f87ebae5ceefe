import Foundation
import Testing
@testable import TileSync

@Suite("JSON writer: compact and canonical text, one escaping, numbers as written")
struct JSONWriterTests {
    @Test("Compact text keeps member order and repeats; canonical sorts keys by UTF-8 bytes, the last repeat wins")
    func styles() throws {
        let value = try JSONParser.parse(Array(#"{"b": 1, "é": [1.50, null], "B": true, "b": 2, "a": {"z": 0, "y": 1}}"#.utf8))
        #expect(JSONWriter.text(value) == #"{"b":1,"é":[1.50,null],"B":true,"b":2,"a":{"z":0,"y":1}}"#)
        #expect(JSONWriter.text(value, style: .canonical) == #"{"B":true,"a":{"y":1,"z":0},"b":2,"é":[1.50,null]}"#)
    }

    @Test("Strings are escaped one way: quote, backslash, the five short escapes, \\u00XX, the rest as UTF-8")
    func escaping() {
        #expect(JSONWriter.quoted("a\"b\\c/d\u{08}\u{0C}\n\r\t\u{01}\u{1F}é😀") == #""a\"b\\c/d\b\f\n\r\t\u0001\u001fé😀""#)
    }

    @Test("Numbers from integers and doubles: no fraction for whole values, the shortest text that reads back, null for what JSON cannot hold")
    func numbers() {
        #expect(JSONValue.int(-42) == .number("-42"))
        #expect(JSONValue.double(-180) == .number("-180"))
        #expect(JSONValue.double(85.0511287798066) == .number("85.0511287798066"))
        #expect(JSONValue.double(0.1) == .number("0.1"))
        #expect(JSONValue.double(1e300) == .number("1e+300"))
        #expect(JSONValue.double(.infinity) == .null)
        #expect(JSONValue.double(.nan) == .null)
    }

    @Test("Setting a member replaces it where it first stands, appends a new one, removes with nil")
    func setting() {
        let value = JSONValue.object([("a", .int(1)), ("b", .int(2)), ("a", .int(3))])
        #expect(value.setting("a", to: .int(9)) == .object([("a", .int(9)), ("b", .int(2))]))
        #expect(value.setting("c", to: .null) == .object([("a", .int(1)), ("b", .int(2)), ("a", .int(3)), ("c", .null)]))
        #expect(value.setting("a", to: nil) == .object([("b", .int(2))]))
        #expect(JSONValue.array([]).setting("a", to: .null) == .array([]))
    }

    @Test("Foundation's JSONSerialization reads our compact text as the same values (an independent reader)")
    func readByFoundation() throws {
        let documents = [
            #"{"name":"cities","vector_layers":[{"id":"places","fields":{"name":"String"},"minzoom":0,"maxzoom":14}],"bounds":[-180,-85.0511,180,85.0511]}"#,
            #"["\u0000\u001f é 😀 \\ \" /",-0.25,1e-7,12345678901234,true,null,{}]"#,
        ]
        for document in documents {
            let ours = JSONWriter.bytes(try JSONParser.parse(Array(document.utf8)))
            let theirs = try JSONSerialization.jsonObject(with: Data(document.utf8), options: [.fragmentsAllowed]) as? NSObject
            let reread = try JSONSerialization.jsonObject(with: Data(ours), options: [.fragmentsAllowed]) as? NSObject
            #expect(theirs != nil && reread == theirs, "\(String(decoding: ours, as: UTF8.self))")
        }
    }
}
