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
        ]
        for (text, paths) in cases {
            let template = try PathTemplate(text)
            #expect(template.foldersHoldOnlyZoomAndColumn == (text != "{z}/{y}/{x}.{ext}"), "\(text)")
            for path in paths {
                let segments = path.split(separator: "/", omittingEmptySubsequences: false)
                var captured = PathTemplate.Captured()
                var fits = true
                for (depth, segment) in segments.dropLast().enumerated() {
                    fits = fits && template.capture(segment: Array(segment.utf8), depth: depth, into: &captured)
                }
                guard fits, template.foldersHoldOnlyZoomAndColumn else { continue }
                let byName = template.match(fileName: Array((segments.last ?? "").utf8), folders: captured, path: path)
                #expect(byName == template.match(path), "\(text): \(path)")
            }
        }
        #expect(try PathTemplate("{q}.{ext}").foldersHoldOnlyZoomAndColumn)
        #expect(try !PathTemplate("{z}.{ext}/{x}/{y}").foldersHoldOnlyZoomAndColumn)
    }

    @Test("Rejects templates that cannot address a tile or could escape")
    func invalid() {
        for bad in ["", "/{z}/{x}/{y}", "{z}/../{x}/{y}", "{z}/{x}", "{z}{x}/{y}", "{z}/{x}/{y}/{y}", "{z}/{x}/{w}", "{z}/{x}/{y:0}", "{z}//{x}/{y}", "{z}/{x}/{y}/{-y}", "{q}/tile.png"] {
            #expect(throws: PathTemplateError.self, "\(bad)") { try PathTemplate(bad) }
        }
        #expect(throws: PathTemplateError(template: "{z}/{x}", reason: "needs {z}, {x} and one of {y} or {-y}, or {q}")) {
            try PathTemplate("{z}/{x}")
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
