import Testing
@testable import TileSync

@Suite("Path templates")
struct PathTemplateTests {
    @Test("Renders XYZ, TMS, swapped order, padding and quadkeys")
    func render() throws {
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        #expect(PathTemplate.xyz.path(for: tile, fileExtension: "png") == "11/327/791.png")
        #expect(PathTemplate.tms.path(for: tile, fileExtension: "png") == "11/327/1256.png")
        #expect(try PathTemplate("{z}/{y}/{x}.{ext}").path(for: tile, fileExtension: "pbf") == "11/791/327.pbf")
        #expect(try PathTemplate("{z:2}/{x:6}/{y:6}.{ext}").path(for: tile, fileExtension: "jpg") == "11/000327/000791.jpg")
        #expect(try PathTemplate("tiles/{q}.{ext}").path(for: tile, fileExtension: "png") == "tiles/02301020333.png")
        #expect(try PathTemplate("{z}-{x}-{y}").path(for: tile, fileExtension: "png") == "11-327-791")
    }

    @Test("Matches paths back, flags bad numbers, ignores other shapes")
    func match() throws {
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        #expect(PathTemplate.xyz.match("11/327/791.png") == .tile(tile, fileExtension: "png"))
        #expect(PathTemplate.tms.match("11/327/1256.webp") == .tile(tile, fileExtension: "webp"))
        #expect(try PathTemplate("{z:2}/{x:6}/{y:6}.{ext}").match("11/000327/000791.jpg") == .tile(tile, fileExtension: "jpg"))
        #expect(try PathTemplate("tiles/{q}.{ext}").match("tiles/02301020333.png") == .tile(tile, fileExtension: "png"))
        #expect(PathTemplate.xyz.match("2/9/1.png") == .invalid("column x=9 is out of range at zoom 2 (0...3)"))
        #expect(PathTemplate.xyz.match("31/0/0.png") == .invalid("zoom 31 is out of range (0...30)"))
        #expect(PathTemplate.xyz.match("1/0/99999999999999999999.png") == .invalid("a number in '1/0/99999999999999999999.png' is too large"))
        for other in ["abc/0/0.png", "1/0/0", "1/0/0.png.tmp", "1/0/.png", "1/0/0/0.png", "metadata.json", "1/0/-1.png"] {
            #expect(PathTemplate.xyz.match(other) == .notATile, "\(other)")
        }
    }

    @Test("A file name matched with the values its folders captured gives what the whole path gives")
    func fileNameMatch() throws {
        let cases: [(String, [String])] = [
            ("{z}/{x}/{y}.{ext}", ["11/327/791.png", "2/9/1.png", "1/0/99999999999999999999.png", "1/99999999999999999999/0.png",
                                   "1/0/0", "1/0/.png", "1/0/x.png"]),
            ("{z}/{x}/{-y}.{ext}", ["11/327/1256.webp", "3/1/8.png"]),
            ("tiles/{z:2}-{x:4}/{y:6}.pbf", ["tiles/11-0327/000791.pbf", "tiles/01-0001/000002.pbf", "tiles/11-0327/791.png"]),
            ("{z}/{y}/{x}.{ext}", ["11/791/327.png"]),
            ("{z}-{x}-{y}", ["11-327-791", "11-327-x"]),
            ("{z}.{ext}/{x}/{y}", ["11.png/327/791"]),
            ("safe", ["11/000/327/000/791.png", "20/1048/576/000/001.png", "11/000/327/000/79.png", "11/000/327/0000/791.png",
                      "11/999999999999/327/000/001.png"]),
            ("tc", ["11/000/000/327/000/001/256.png", "11/000/000/327/000/001/25.png"]),
            ("arcgis", ["L11/R00000317/C00000147.png", "L11/R00000317/C0000014G.png", "L11/R0000031A/C00000147.png"]),
        ]
        for (text, paths) in cases {
            let template = try PathTemplate(text)
            for path in paths {
                let segments = path.split(separator: "/", omittingEmptySubsequences: false)
                var captured = PathTemplate.Values()
                var fits = true
                for (depth, segment) in segments.dropLast().enumerated() {
                    fits = fits && template.capture(segment: Array(segment.utf8), depth: depth, into: &captured)
                }
                guard fits else {
                    #expect(template.match(path) == .notATile, "\(text): \(path)")
                    continue
                }
                let byName = template.match(fileName: Array((segments.last ?? "").utf8), folders: captured, path: path)
                #expect(byName == template.match(path), "\(text): \(path)")
            }
        }
    }

    @Test("Split digit groups, hexadecimal fields and named layouts write and read the layouts in the wild")
    func splitAndHexadecimal() throws {
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        let safe = try PathTemplate("safe")
        #expect(safe.text == "{z}/{x:6/3}/{y:6/3}.{ext}")
        #expect(safe.name == "safe")
        #expect(safe.path(for: tile, fileExtension: "png") == "11/000/327/000/791.png")
        #expect(safe.match("11/000/327/000/791.png") == .tile(tile, fileExtension: "png"))
        let wide = try TileCoordinate(z: 20, x: 1_048_575, y: 12_345)
        #expect(safe.path(for: wide, fileExtension: "png") == "20/1048/575/012/345.png")
        #expect(safe.match("20/1048/575/012/345.png") == .tile(wide, fileExtension: "png"))
        #expect(safe.match("20/0001048/575/012/345.png") == .tile(wide, fileExtension: "png"))
        #expect(safe.match("11/" + String(repeating: "0", count: 2_000) + "/327/000/791.png") == .tile(tile, fileExtension: "png"))
        #expect(safe.match("11/000/327/000/79.png") == .notATile)
        #expect(safe.match("11/000/3270/000/791.png") == .notATile)
        #expect(safe.match("11/999999999999/327/000/001.png") == .invalid("a number in '11/999999999999/327/000/001.png' is too large"))
        #expect(safe.match("11/002/048/000/000.png") == .invalid("column x=2048 is out of range at zoom 11 (0...2047)"))

        let tc = try PathTemplate("tc")
        #expect(tc.path(for: tile, fileExtension: "jpeg") == "11/000/000/327/000/001/256.jpeg")
        #expect(tc.match("11/000/000/327/000/001/256.jpeg") == .tile(tile, fileExtension: "jpeg"))
        let deep = try TileCoordinate(z: 30, x: 1_073_741_823, y: 0)
        #expect(tc.path(for: deep, fileExtension: "png") == "30/1073/741/823/1073/741/823.png")
        #expect(tc.match("30/1073/741/823/1073/741/823.png") == .tile(deep, fileExtension: "png"))
        #expect(try PathTemplate("mp").path(for: tile, fileExtension: "png") == "11/0000/0327/0000/1256.png")

        let arcgis = try PathTemplate("ArcGIS")
        #expect(arcgis.text == "L{z:2}/R{y:8x}/C{x:8x}.{ext}")
        #expect(arcgis.path(for: tile, fileExtension: "png") == "L11/R00000317/C00000147.png")
        #expect(arcgis.match("L11/R00000317/C00000147.png") == .tile(tile, fileExtension: "png"))
        #expect(arcgis.match("L11/r00000317/C00000147.png") == .notATile)
        let upper = try TileCoordinate(z: 11, x: 0x147, y: 0x31A)
        #expect(arcgis.match("L11/R0000031A/C00000147.png") == .tile(upper, fileExtension: "png"))
        #expect(arcgis.match("L11/R0000031a/C00000147.png") == .tile(upper, fileExtension: "png"))
        #expect(arcgis.match("L05/R0000029a/C00000422.png") == .invalid("column x=1058 is out of range at zoom 5 (0...31)"))
        #expect(arcgis.match("L12/R0000029a/C00000422.png") == .tile(try TileCoordinate(z: 12, x: 0x422, y: 0x29a), fileExtension: "png"))
        #expect(try PathTemplate("{z}/{x:x}/{y:x}.{ext}").path(for: tile, fileExtension: "png") == "11/147/317.png")
        #expect(try PathTemplate("{z}/{x:9x/3}/{y}.{ext}").path(for: tile, fileExtension: "png") == "11/000/000/147/791.png")

        #expect(try PathTemplate("quadkey") == PathTemplate("{q}.{ext}"))
        #expect(try PathTemplate("zyx") == PathTemplate("{z}/{y}/{x}.{ext}"))
        #expect(try PathTemplate("safe").withTMSRows().text == "{z}/{x:6/3}/{-y:6/3}.{ext}")
        #expect(try PathTemplate("tc").withXYZRows().text == "{z:2}/{x:9/3}/{y:9/3}.{ext}")
        #expect(try PathTemplate("arcgis").swappingColumnsAndRows().text == "L{z:2}/R{x:8x}/C{y:8x}.{ext}")
        #expect(try PathTemplate("safe").walkOrder == .unordered)
        #expect(try PathTemplate("arcgis").walkOrder == .unordered)
        #expect(try PathTemplate("{z:2}/{x:4}/{y:4}.{ext}").walkOrder == .zoomColumnRow)
    }

    @Test("Rejects templates that cannot address a tile or could escape")
    func invalid() {
        for bad in ["", "/{z}/{x}/{y}", "{z}/../{x}/{y}", "{z}/{x}", "{z}{x}/{y}", "{z}/{x}/{y}/{y}", "{z}/{x}/{w}", "{z}/{x}/{y:0}", "{z}//{x}/{y}",
                    "{z}/{x}/{y}/{-y}", "{q}/tile.png", "{z}/{x:6/6}/{y}", "{z}/{x:/3}/{y}", "{z}/{x:6/0}/{y}", "{z}/{x:6/3}{y}", "{q:4}.png",
                    "{z}/{x}/{y}.{ext:x}", "{z}/{x:11}/{y}", "{z}/{x:4y}/{y}", "{z}/{x:6/3}/../{y}", "{z}/{x}/{y}}", "safe/"] {
            #expect(throws: PathTemplate.ParseError.self, "\(bad)") { try PathTemplate(bad) }
        }
        #expect(throws: PathTemplate.ParseError(template: "{z}/{x}", reason: "needs {z}, {x} and one of {y} or {-y}, or {q}")) {
            try PathTemplate("{z}/{x}")
        }
        #expect(throws: PathTemplate.ParseError(template: "{z}/{x:6/6}/{y}", reason: "has a bad format in {x:6/6} (e.g. {x:4}, {y:8x}, {x:6/3})")) {
            try PathTemplate("{z}/{x:6/6}/{y}")
        }
    }

    @Test("Walk order follows the layout")
    func order() throws {
        #expect(PathTemplate.xyz.walkOrder == .zoomColumnRow)
        #expect(PathTemplate.tms.walkOrder == .zoomColumnTMSRow)
        #expect(try PathTemplate("{z}/{y}/{x}.{ext}").walkOrder == .unordered)
        #expect(PathTemplate.xyz.withTMSRows() == PathTemplate.tms)
    }

    @Test("Folder names sort numerically, leading zeros and non-numbers last")
    func naturalOrder() {
        let names = ["12.png", "3.png", "a", "003.png", "10", "2", "B"].map { Array($0.utf8) }
        let sorted = names.sorted(by: DirectoryWalker.compareNames).map { String(decoding: $0, as: UTF8.self) }
        #expect(sorted == ["2", "3.png", "003.png", "10", "12.png", "B", "a"])
    }
}
