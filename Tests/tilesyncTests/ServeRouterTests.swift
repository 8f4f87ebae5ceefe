import Foundation
import Testing
@testable import tilesync
@testable import TileSync

@Suite("serve: request paths, ranges, entity tags and names")
struct ServeRouterTests {
    @Test("Range headers: one range answered, several or malformed ones give the whole body, outside is 416")
    func byteRanges() {
        let size: UInt64 = 1000
        let cases: [(String, ByteRangeRequest.Answer)] = [
            ("bytes=0-126", .partial(offset: 0, length: 127)),
            ("bytes=990-2000", .partial(offset: 990, length: 10)),
            ("bytes=500-", .partial(offset: 500, length: 500)),
            ("bytes=-10", .partial(offset: 990, length: 10)),
            ("bytes=-5000", .partial(offset: 0, length: 1000)),
            ("bytes=1000-", .unsatisfiable),
            ("bytes=-0", .unsatisfiable),
            ("bytes=5-4", .whole),
            ("bytes=0-1,5-6", .whole),
            ("items=0-5", .whole),
            ("bytes=+1-5", .whole),
            ("bytes=99999999999999999999-", .whole),
            ("bytes=", .whole),
        ]
        for (header, answer) in cases {
            #expect(ByteRangeRequest.answer(header, size: size) == answer, "\(header)")
        }
        #expect(ByteRangeRequest.answer("bytes=0-", size: 0) == .unsatisfiable)
    }

    @Test("Accept-Encoding (RFC 9110 12.5.3): no header takes every coding, an empty one none; weights, *, x-gzip and case")
    func acceptEncoding() {
        let cases: [(String?, String, Bool)] = [
            (nil, "br", true), ("", "gzip", false), ("gzip", "gzip", true), ("GZip", "gzip", true), ("x-gzip", "gzip", true),
            ("gzip, deflate", "br", false), ("gzip, deflate, br", "br", true), ("br;q=0", "br", false), ("br; q=0.001", "br", true),
            ("br;q=0.000", "br", false), ("br;q=1.000", "br", true), ("br;q=1.5", "br", false), ("br;q=2", "br", false),
            ("br;q=0.5x", "br", false), ("br;q=", "br", false), ("*", "zstd", true), ("*;q=0", "zstd", false),
            ("*, zstd;q=0", "zstd", false), ("*;q=0, zstd", "zstd", true), (" gzip ;  q=0.8 , br ", "br", true),
            ("br;q=0, br", "br", true), ("identity", "gzip", false), (",,", "gzip", false), ("deflate", "deflate", true),
        ]
        for (header, coding, accepted) in cases {
            #expect(AcceptEncoding(header).accepts(coding) == accepted, "\(header ?? "nil") for \(coding)")
        }
    }

    @Test("If-None-Match: lists, weak tags and * match; other tags do not")
    func entityTags() {
        let tag = EntityTag.quoted("ABC")
        #expect(tag == "\"ABC\"")
        #expect(EntityTag.ifNoneMatch("\"ABC\"", matches: tag))
        #expect(EntityTag.ifNoneMatch("\"X\", W/\"ABC\"", matches: tag))
        #expect(EntityTag.ifNoneMatch("*", matches: tag))
        #expect(!EntityTag.ifNoneMatch("\"abc\"", matches: tag))
        #expect(!EntityTag.ifNoneMatch("ABC", matches: tag))
    }

    @Test("Paths decode per segment; encoded slashes, NULs, control characters and dot segments are refused")
    func requestPaths() throws {
        #expect(try RequestPath.segments(of: "/").get() == [])
        #expect(try RequestPath.segments(of: "/a%20b/1/").get() == ["a b", "1", ""])
        #expect(try RequestPath.segments(of: "/%C3%A9").get() == ["é"])
        #expect(try RequestPath.segments(of: "/é/a%41b/12.png").get() == ["é", "aAb", "12.png"])
        for bad in ["/a%2Fb", "/a%5Cb", "/a\\b", "/a\u{7F}b", "/a\tb", "/a%00", "/a%0A", "/a%", "/a%4", "/a%G1", "/%FF%FE", "/..", "/a/./b", "/a/%2E%2E/b"] {
            #expect(throws: RequestPath.Problem.self, "\(bad)") { try RequestPath.segments(of: bad).get() }
        }
    }

    @Test("Tile paths: decimal numbers in the grid, the store's extension or none")
    func tilePaths() throws {
        #expect(try TileRequestPath.coordinate(z: "3", x: "7", y: "0.png", format: .png).get() == TileCoordinate(unchecked: 3, 7, 0))
        #expect(try TileRequestPath.coordinate(z: "3", x: "7", y: "0", format: .png).get() == TileCoordinate(unchecked: 3, 7, 0))
        #expect(try TileRequestPath.coordinate(z: "0", x: "0", y: "0.MVT", format: .pbf).get() == TileCoordinate(unchecked: 0, 0, 0))
        #expect(try TileRequestPath.coordinate(z: "2", x: "1", y: "1.jpeg", format: .jpeg).get() == TileCoordinate(unchecked: 2, 1, 1))
        #expect(try TileRequestPath.coordinate(z: "2", x: "1", y: "1.mlt", format: .mlt).get() == TileCoordinate(unchecked: 2, 1, 1))
        #expect(throws: TileRequestPath.Problem.self) { try TileRequestPath.coordinate(z: "2", x: "1", y: "1.pbf", format: .mlt).get() }
        let problems: [(String, String, String, Int)] = [
            ("30", "1073741824", "0.png", 400), ("3", "-1", "0.png", 400), ("3", "1", "0.webp", 404),
            ("", "0", "0.png", 400), ("3", "0x1", "0.png", 400), ("99", "0", "0.png", 400), ("3", "12345678901", "0.png", 400),
            ("3", "+1", "0.png", 400), ("3", "1", "-0.png", 400), ("3", "1", "٣.png", 400), ("3", "1 ", "0.png", 400),
        ]
        for (z, x, y, status) in problems {
            #expect(throws: TileRequestPath.Problem.self) { try TileRequestPath.coordinate(z: z, x: x, y: y, format: .png).get() }
            if case .failure(let problem) = TileRequestPath.coordinate(z: z, x: x, y: y, format: .png) {
                #expect(problem.status == status, "\(z)/\(x)/\(y)")
            }
        }
    }

    @Test("50,000 seeded random headers and paths: a range lies inside the body; a plain path's segments are the general decoding's; nothing traps")
    func randomHeadersAndPaths() throws {
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
        func digits() -> String { String((0..<next(22)).map { _ in Character(String(next(10))) }) }
        let rangePieces = ["bytes=", "Bytes=", " ", "\t", "-", "-", ",", "*", "+", "=", "items="]
        let segmentPieces = ["3", "07", "a-b", "..", ".", "%41", "%2F", "%", "é", "", "x.png", "1073741823", "99999999999", "~_", "?q", "#"]
        var answered = 0, plainPaths = 0
        for _ in 0..<50_000 {
            let noise = (0..<next(5)).map { _ in next(2) == 0 ? digits() : rangePieces[next(rangePieces.count)] }.joined()
            let bound = { next(3) == 0 ? "" : String(next(6000)) }
            let header = next(2) == 0 ? noise : bound() + "-" + bound() + (next(4) == 0 ? noise : "")
            let size = UInt64(next(3) == 0 ? 0 : next(5000))
            switch ByteRangeRequest.answer(next(2) == 0 ? "bytes=" + header : header, size: size) {
            case .partial(let offset, let length):
                answered += 1
                #expect(length >= 1 && offset + length <= size, "\(header) of \(size) bytes: \(offset)+\(length)")
            case .unsatisfiable, .whole:
                break
            }
            _ = AcceptEncoding(header).accepts("gzip")
            _ = EntityTag.ifNoneMatch(header, matches: "\"abc\"")
            var path = "/" + (0..<(2 + next(4))).map { _ in (0..<(1 + next(2))).map { _ in segmentPieces[next(segmentPieces.count)] }.joined() }
                .joined(separator: "/")
            let general = RequestPath.segments(of: path)
            let plain: [String]? = path.withUTF8 { bytes in
                PlainTilePath(bytes).map { plain in
                    [plain.name, plain.z, plain.x, plain.y].map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
                }
            }
            if let plain {
                plainPaths += 1
                #expect(try general.get() == plain, "\(path)")
                _ = TileRequestPath.coordinate(z: plain[1], x: plain[2], y: plain[3], format: .png)
            } else if case .success(let segments) = general, segments.count == 4 {
                _ = TileRequestPath.coordinate(z: segments[1], x: segments[2], y: segments[3], format: .png)
            }
        }
        #expect(answered > 1_000)
        #expect(plainPaths > 100)
    }

    @Test("Plain tile paths: four segments of unreserved characters are read in place; anything to decode or another shape goes the general way")
    func plainTilePaths() {
        func parts(_ path: String) -> [String]? {
            var text = path
            return text.withUTF8 { bytes in
                PlainTilePath(bytes).map { plain in
                    [plain.name, plain.z, plain.x, plain.y].map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
                }
            }
        }
        #expect(parts("/world/3/7/0.png") == ["world", "3", "7", "0.png"])
        #expect(parts("/w-1_a.b~c/30/1073741823/9") == ["w-1_a.b~c", "30", "1073741823", "9"])
        for other in ["/world/3/7", "/world/3/7/0.png/", "world/3/7/0.png", "/world/%33/7/0.png", "/world//7/0.png", "/../3/7/0.png",
                      "/world/./7/0.png", "/world/3/7/..", "/wörld/3/7/0.png", "/world/3/7/0.png?x=1", "/", ""] {
            #expect(parts(other) == nil, "\(other)")
        }
    }

    @Test("Default names: file name without the store's extension, characters a URL would encode replaced")
    func defaultNames() {
        #expect(ServedStore.defaultName(for: "/data/world.mbtiles") == "world")
        #expect(ServedStore.defaultName(for: "tiles/") == "tiles")
        #expect(ServedStore.defaultName(for: "archive.tar.gz") == "archive")
        #expect(ServedStore.defaultName(for: "https://example.com/maps/planet.pmtiles") == "planet")
        #expect(ServedStore.defaultName(for: "s3://bucket/my tiles") == "my-tiles")
        #expect(ServedStore.defaultName(for: ".hidden.mbtiles") == "hidden")
        #expect(ServedStore.defaultName(for: "/") == "tiles")
        #expect(ServedStore.isValidName("osm-2024_v1.2"))
        #expect(!ServedStore.isValidName("_assets"))
        #expect(!ServedStore.isValidName(".x"))
        #expect(!ServedStore.isValidName("a/b"))
        #expect(!ServedStore.isValidName(""))
    }
}
