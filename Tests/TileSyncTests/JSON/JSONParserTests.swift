import Foundation
import Testing
@testable import TileSync

@Suite("JSON parser: one value type, members in order, numbers as written, refusals with byte offsets")
struct JSONParserTests {
    private func parse(_ text: String, limits: JSONParser.Limits = JSONParser.Limits()) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), limits: limits)
    }

    @Test("Every kind of value, members in document order, repeated keys kept (lookups take the last)")
    func values() throws {
        let value = try parse(#" {"b": [1, -0.5, 2E+3, true, false, null], "a": {"x": "y"}, "b": "again"} "#)
        #expect(value.members?.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == .string("again"))
        #expect(value.members?[0].value == .array([.number("1"), .number("-0.5"), .number("2E+3"), .bool(true), .bool(false), .null]))
        #expect(value["a"]?["x"]?.string == "y")
        #expect(value["missing"] == nil)
        #expect(try parse("2E+3").double == 2000)
        #expect(try parse("3.0").int == 3)
        #expect(try parse("3.5").int == nil)
        #expect(try parse("-9007199254740993").int == -9_007_199_254_740_993)
    }

    @Test("Escapes, surrogate pairs, a byte order mark and invalid UTF-8 inside strings")
    func strings() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀"))
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"k":1}"#.utf8)) == .object([("k", .number("1"))]))
        #expect(try JSONParser.parse([0x22, 0x61, 0xFF, 0x22]) == .string("a\u{FFFD}"))
        let lenient = JSONParser.Limits(replacesLoneSurrogates: true)
        #expect(try parse(#""\ud800x""#, limits: lenient) == .string("\u{FFFD}x"))
        #expect(try parse(#""\udc00\ud800\u0041""#, limits: lenient) == .string("\u{FFFD}\u{FFFD}A"))
    }

    @Test("Malformed documents: the reason and the byte offset", arguments: [
        ("", "expected a value", 0),
        ("{\"a\":}", "expected a value", 5),
        ("{\"a\" 1}", "expected ':'", 5),
        ("{1:2}", "expected a key", 1),
        ("[1 2]", "expected ']'", 3),
        ("[01]", "a number with a leading zero", 3),
        ("-", "a number without digits", 1),
        ("1.", "a number without digits after '.'", 2),
        ("1e", "a number without exponent digits", 2),
        ("[1e999]", "a number out of range", 1),
        ("\"a\nb\"", "a control character in a string", 2),
        ("\"abc", "an unterminated string", 4),
        ("\"\\x\"", "a bad escape", 3),
        ("\"\\u12xy\"", "a bad \\u escape", 3),
        ("\"\\u12", "a short \\u escape", 3),
        ("\"\\ud800\"", "a lone surrogate", 7),
        ("tru", "expected a value", 0),
        ("{} x", "text after the JSON value", 3),
    ])
    func malformed(text: String, reason: String, offset: Int) {
        #expect(throws: JSONError(reason: reason, offset: offset)) { try parse(text) }
    }

    @Test("Hostile shapes get bounded work: nesting and size are capped, the source is named")
    func limits() throws {
        let deep = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONError(reason: "nesting deeper than 64", offset: 64)) { try parse(deep) }
        #expect(try parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).array?.count == 1)
        let small = JSONParser.Limits(maxDepth: 2, maxBytes: 8)
        #expect(throws: JSONError(reason: "nesting deeper than 2", offset: 2)) { try parse("[[[]]]", limits: small) }
        #expect(throws: JSONError(reason: "a document larger than 8 bytes", offset: 8)) { try parse("[1,2,3,4,5]", limits: small) }
        let error = try #require(throws: JSONError.self) { try JSONParser.parse(Array("[".utf8), source: "tiles.json") }
        #expect(error.description == "tiles.json: expected a value at byte 1")
    }

    @Test("A top-level object's members with the bytes each value was written in")
    func objectMembers() throws {
        let text = #"{ "a" : [1, 2] , "b":"x" }"#
        let members = try JSONParser.objectMembers(Array(text.utf8))
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members.map { String(decoding: Array(text.utf8)[$0.range], as: UTF8.self) } == ["[1, 2]", "\"x\""])
        #expect(throws: JSONError(reason: "expected a JSON object", offset: 1)) { try JSONParser.objectMembers(Array(" [1]".utf8)) }
    }
}
