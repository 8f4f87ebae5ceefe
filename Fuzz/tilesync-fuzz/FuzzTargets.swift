import Foundation
@_spi(Fuzzing) import TileSync

/// The fuzz targets, one per kind of untrusted input. Each must never trap, hang or leak:
/// errors are the expected outcome for most inputs.
enum FuzzTargets {
    enum Target: String, CaseIterable {
        /// Bytes of an MBTiles (SQLite) file.
        case mbtiles
        /// Bytes of a tar archive (any compression libarchive detects).
        case tar
        /// Bytes of a PMTiles archive: header, directories, leaves, metadata.
        case pmtiles
        /// Text typed by a user or found in paths: templates, locations, coordinates, boxes.
        case names
        /// Bytes of a metadata.json / TileJSON document (also read as a `.grid.json` UTFGrid).
        case metadata
        /// Bytes of a raster tile (PNG, JPEG, WebP), decoded and re-encoded.
        case raster
        /// Bytes of any JSON document (TileJSON, GeoJSON, metadata), parsed and written back.
        case json
        /// Bytes of an uncompressed Mapbox Vector Tile: decoded, checked and encoded back.
        case mvt
        /// Bytes of a tile list (an expire list), read with and without widening.
        case tilelist
        /// Bytes of a GeoPackage (SQLite) file: its tile tables, matrices and metadata read, then
        /// a table added to it and its tiles table synced from a small folder.
        case gpkg
        /// Bytes of a GeoJSON region: its cover at zooms 0-5 (with a border of 1 when the first
        /// byte is odd, a 2 km buffer when its second bit is set).
        case region
        /// Bytes of a server's answer: an S3 XML document (listing page, error) and, up to the
        /// first line break, a header value (Content-Range, dates, Cache-Control, Retry-After).
        case answers
        /// Bytes of a patch file (martin's diff format), described and applied to an MBTiles,
        /// a PMTiles and a folder, first as made for them, then forced.
        case patch
    }

    static let scratch = NSTemporaryDirectory() + "tilesync-fuzz-\(getpid())"

    static func run(_ target: Target, _ data: Data) {
        switch target {
        case .mbtiles: store(data, name: "input.mbtiles", kind: "mbtiles")
        case .tar: store(data, name: "input.tar", kind: "tar")
        case .pmtiles: store(data, name: "input.pmtiles", kind: "pmtiles")
        case .names: names(String(decoding: data, as: UTF8.self))
        case .metadata: metadata(data)
        case .raster: raster(data)
        case .json: json(data)
        case .mvt: vectorTile(data)
        case .tilelist: tileList(data)
        case .gpkg: geoPackage(data)
        case .patch: patch(data)
        case .answers: serverAnswer(data)
        case .region: regionCover(data)
        }
    }

    /// The bytes as a tile list, invalid lines skipped, widened to zooms 0-3 when the first byte
    /// is odd: every tile the runs give is looked up, the runs hold `count` tiles in key order.
    private static func tileList(_ data: Data) {
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/input.list"
        guard FileManager.default.createFile(atPath: path, contents: data) else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try? TileList(path: path, scratchFolder: scratch)
        let widening = (data.first ?? 0) & 1 == 1 ? 0...3 : nil
        guard let list = try? TileList(path: path, widening: widening, skipInvalid: true, scratchFolder: scratch) else { return }
        var seen = 0
        for z in 0...TileCoordinate.maxZoom {
            guard let extent = list.extent(atZoom: z) else { continue }
            let tiles = list.tiles(in: extent)
            guard tiles.count == list.count(atZoom: z), tiles.allSatisfy({ list.contains($0) }) else {
                fatalError("the tiles of zoom \(z) in its extent are not the ones counted and found")
            }
            seen += tiles.count
            if seen > 100_000 { return }
        }
        guard seen == list.count else { fatalError("the zooms hold \(seen) tiles, the list says \(list.count)") }
    }

    /// The bytes as a GeoJSON region: at each zoom 0-5, the tiles counted row by row (without
    /// keeping the cover, on a second reading of the region) are the cover's, which are the sum
    /// of its rows' runs, and at zooms 0-4 the tiles `contains` takes.
    private static func regionCover(_ data: Data) {
        let first = data.first ?? 0
        let border = Int(first & 1)
        let buffer = first & 2 == 2 ? try? GroundDistance(parsing: "2km") : nil
        guard let region = try? TileRegion(geoJSON: data, name: "fuzz.geojson", buffer: buffer, border: border),
              let counting = try? TileRegion(geoJSON: data, name: "fuzz.geojson", buffer: buffer, border: border) else { return }
        for z in 0...5 {
            let cover = region.cover(atZoom: z)
            let inRows = (0..<(1 << z)).reduce(0) { sum, y in sum + cover.columns(inRow: y).reduce(0) { $0 + $1.count } }
            guard counting.tileCount(atZoom: z) == cover.tileCount, inRows == cover.tileCount else {
                fatalError("zoom \(z): \(counting.tileCount(atZoom: z)) tiles counted, \(cover.tileCount) in the cover, \(inRows) in its rows")
            }
            guard z <= 4 else { continue }
            var contained = 0
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    if let tile = try? TileCoordinate(z: z, x: x, y: y), region.contains(tile) { contained += 1 }
                }
            }
            guard contained == cover.tileCount else { fatalError("zoom \(z): \(contained) tiles contained, \(cover.tileCount) in the cover") }
        }
    }

    /// The bytes as an S3 document, their first line as a header value; a well-formed document
    /// less deep than the reader's limit (64) must also be when wrapped in one more element.
    private static func serverAnswer(_ data: Data) {
        let header = String(decoding: data.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        guard let document = ServerAnswerReading.read(body: data, header: header), document.depth < 64 else { return }
        var wrapped = Data("<Wrapper>".utf8)
        var body = data
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        wrapped.append(body)
        wrapped.append(contentsOf: Array("</Wrapper>".utf8))
        guard let again = ServerAnswerReading.read(body: wrapped, header: header),
              again.elements == document.elements + 1, again.depth == document.depth + 1 else {
            fatalError("a well-formed document of \(document.elements) elements is not one more when wrapped")
        }
    }

    /// The bytes as a GeoPackage: read as every store is, then written to as a user's file
    /// would be (its one tile table synced from the patch base folder, then that folder added as
    /// a table beside the others), each read again.
    private static func geoPackage(_ data: Data) {
        store(data, name: "input.gpkg", kind: "gpkg")
        let path = scratch + "/written.gpkg"
        guard let bases = patchBases(), FileManager.default.createFile(atPath: path, contents: data),
              let folder = try? TileStoreLocation(parsing: "dir:" + bases.folder) else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let synced = try? TileStoreLocation(parsing: "gpkg:" + path), (try? TileSynchronizer.sync(from: folder, to: synced)) != nil {
            if let cursor = try? synced.openReader().tiles(matching: .all) { drain(cursor) }
            _ = try? StoreVerifier.verify(synced)
        }
        guard let added = try? TileStoreLocation(parsing: "gpkg:" + path + "#added"),
              (try? TileConverter.convert(from: folder, to: added)) != nil else { return }
        if let cursor = try? added.openReader().tiles(matching: .all) { drain(cursor) }
    }

    /// The bytes as a patch: described, then applied to a fresh small MBTiles, PMTiles and
    /// folder, once as made for them and once forced; a store a patch applied to is verified and
    /// read whole.
    private static func patch(_ data: Data) {
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/patch.mbtiles"
        guard FileManager.default.createFile(atPath: path, contents: data), let bases = patchBases() else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try? TilePatcher.describe(patch: path)
        for (base, kind) in [(bases.mbtiles, "mbtiles"), (bases.pmtiles, "pmtiles"), (bases.folder, "dir")] {
            let target = scratch + "/target-" + kind
            try? FileManager.default.removeItem(atPath: target)
            guard (try? FileManager.default.copyItem(atPath: base, toPath: target)) != nil,
                  let location = try? TileStoreLocation(parsing: kind + ":" + target) else { continue }
            var forced = TilePatcher.ApplyOptions()
            forced.force = true
            for options in [TilePatcher.ApplyOptions(), forced] where (try? TilePatcher.apply(patch: path, to: location, options: options)) != nil {
                _ = try? StoreVerifier.verify(location)
                if let cursor = try? location.openReader().tiles(matching: .all) { drain(cursor) }
            }
            try? FileManager.default.removeItem(atPath: target)
        }
    }

    /// The stores patches are applied to, made once per process: a folder of four tiles
    /// (zooms 0-1, PNG signatures) and the same tiles as an MBTiles and a PMTiles.
    private static func patchBases() -> (mbtiles: String, pmtiles: String, folder: String)? {
        let bases = (mbtiles: scratch + "/base.mbtiles", pmtiles: scratch + "/base.pmtiles", folder: scratch + "/base-folder")
        if FileManager.default.fileExists(atPath: bases.pmtiles) { return bases }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (index, path) in ["0/0/0.png", "1/0/0.png", "1/1/0.png", "1/1/1.png"].enumerated() {
            let file = bases.folder + "/" + path
            try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: file, contents: Data(png + [UInt8(index)])) else { return nil }
        }
        guard let folder = try? TileStoreLocation(parsing: "dir:" + bases.folder),
              let mbtiles = try? TileStoreLocation(parsing: "mbtiles:" + bases.mbtiles),
              let pmtiles = try? TileStoreLocation(parsing: "pmtiles:" + bases.pmtiles),
              (try? TileConverter.convert(from: folder, to: mbtiles)) != nil,
              (try? TileConverter.convert(from: folder, to: pmtiles)) != nil else { return nil }
        return bases
    }

    /// A raster tile decoded (at most 4,194,304 pixels); what decodes is re-encoded as lossless
    /// WebP and as PNG, which must decode to the same pixels, and as JPEG over white.
    private static func raster(_ data: Data) {
        guard let image = try? RasterReencoder.decode(data, pixelLimit: 1 << 22),
              let origin = try? TileCoordinate(z: 0, x: 0, y: 0) else { return }
        let tile = Tile(coordinate: origin, data: data)
        var lossless = RasterReencoder.Encoding(format: .webp)
        lossless.lossless = true
        var jpeg = RasterReencoder.Encoding(format: .jpeg)
        jpeg.background = RasterReencoder.Color(red: 255, green: 255, blue: 255)
        for encoding in [lossless, RasterReencoder.Encoding(format: .png), jpeg] {
            var limited = encoding
            limited.pixelLimit = 1 << 22
            guard let reencoder = try? RasterReencoder(encoding: limited, store: "fuzz"),
                  case .reencoded(let bytes)? = try? reencoder.reencode(tile), encoding.format != .jpeg else { continue }
            guard let again = try? RasterReencoder.decode(bytes, pixelLimit: 1 << 22), again.hasSamePixels(as: image) || image.reducedPrecision else {
                fatalError("a lossless re-encoding (\(encoding.formatDescription)) does not decode to the same pixels")
            }
        }
    }

    /// Opens the bytes as a store and reads everything a conversion reads, at most 10,000 tiles.
    /// - Parameter kind: the prefix that forces the kind (`mbtiles`), whatever the bytes hold.
    private static func store(_ data: Data, name: String, kind: String) {
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: data) else { return }
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let location = try? TileStoreLocation(parsing: kind + ":" + path), let reader = try? location.openReader() else { return }
        _ = try? reader.metadata()
        _ = try? reader.summary(matching: .all)
        if let cursor = try? reader.tiles(matching: .all) { drain(cursor) }
        if let merged = try? TileStoreLocation.merging([location, location], onDuplicate: .ignore).openReader().tiles(matching: .all) {
            drain(merged)
        }
        if let index = try? reader.index(matching: .all) {
            var count = 0
            while count < 10_000, (try? index.next()) != nil { count += 1 }
        }
        _ = try? reader.tile(at: TileCoordinate(z: 0, x: 0, y: 0))
        _ = try? StoreVerifier.verify(location)
    }

    /// Reads up to 10,000 tiles, going on past invalid ones as `--skip-invalid` does (the cursor
    /// moved past the bad tile).
    private static func drain(_ cursor: any TileCursor) {
        var count = 0
        while count < 10_000 {
            do {
                guard let tile = try cursor.next() else { break }
                _ = SniffedTileFormat(sniffing: tile.data)
            } catch let error as TileStoreError where error.kind == .invalidTile {
            } catch {
                break
            }
            count += 1
        }
    }

    /// A metadata document, and the same bytes as a `.grid.json` document, whose canonical form
    /// must read back as itself.
    private static func metadata(_ data: Data) {
        _ = try? MetadataJSON.decode(data)
        guard let origin = try? TileCoordinate(z: 0, x: 0, y: 0), let grid = try? UTFGrid(coordinate: origin, document: data) else { return }
        guard (try? UTFGrid(coordinate: origin, document: grid.json))?.json == grid.json else {
            fatalError("the canonical form of a grid does not read back as itself")
        }
    }

    /// A JSON document: what parses must read back as itself from its compact text, and its
    /// canonical text must be canonical already; the same bytes are also read as a GeoJSON region.
    private static func json(_ data: Data) {
        _ = try? TileRegion(geoJSON: data, name: "fuzz.geojson")
        guard let value = try? JSONParser.parse(data) else { return }
        guard (try? JSONParser.parse(JSONWriter.bytes(value))) == value else {
            fatalError("the compact text of a JSON value does not read back as itself")
        }
        let canonical = JSONWriter.bytes(value, style: .canonical)
        guard let reread = try? JSONParser.parse(canonical), JSONWriter.bytes(reread, style: .canonical) == canonical else {
            fatalError("the canonical text of a JSON value is not canonical")
        }
    }

    /// A vector tile: what decodes must encode to bytes that decode and encode to the same
    /// bytes; the deep check must agree that a tile which does not decode has a problem.
    private static func vectorTile(_ data: Data) {
        let problems = VectorTile.problems(in: data)
        guard let tile = try? VectorTile(decoding: data) else {
            guard !problems.isEmpty else { fatalError("a tile that does not decode has no problem") }
            return
        }
        let encoded = tile.encoded()
        guard let again = try? VectorTile(decoding: encoded), again.encoded() == encoded else {
            fatalError("an encoded vector tile does not decode back to itself")
        }
        for layer in tile.layers {
            for feature in layer.features { _ = try? feature.rings() }
        }
        layerFilters(data, tile: tile)
    }

    /// A filter that keeps every layer changes nothing and names every layer; one that drops the
    /// first layer's name leaves the other layers (names compared by their bytes), in order.
    private static func layerFilters(_ data: Data, tile: VectorTile) {
        let names = tile.layers.map(\.name)
        var keepsAll = VectorTile.LayerFilter()
        keepsAll.droppedLayers = ["\u{0}no such layer"]
        guard let kept = try? keepsAll.apply(to: data), kept.data == nil, kept.layerNames == names else {
            fatalError("a filter that drops no layer changed a tile or named other layers")
        }
        guard let first = names.first else { return }
        var dropsFirst = VectorTile.LayerFilter()
        dropsFirst.droppedLayers = [first]
        guard let dropped = try? dropsFirst.apply(to: data), let remaining = dropped.data,
              let left = try? VectorTile(decoding: remaining),
              left.layers.map({ Array($0.name.utf8) }) == names.map({ Array($0.utf8) }).filter({ $0 != Array(first.utf8) }) else {
            fatalError("dropping the layer '\(first)' did not leave the other layers")
        }
    }

    private static func names(_ text: String) {
        _ = try? PathTemplate(text)
        _ = try? TileStoreLocation(parsing: "dir:" + text)
        _ = try? TileCoordinate(parsing: text)
        _ = try? TileCoordinate(quadkey: text)
        _ = try? BoundingBox(parsing: text)
        if let template = try? PathTemplate(text), let tile = try? TileCoordinate(z: 3, x: 5, y: 2) {
            _ = template.path(for: tile, fileExtension: "png")
        }
        // "TEMPLATE\nPATH": the path matched, and a tile it gives written back and matched again.
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let template = try? PathTemplate(String(parts[0])) else { return }
        if let tile = template.coordinate(ofPath: String(parts[1])) {
            let path = template.path(for: tile, fileExtension: "png")
            guard template.coordinate(ofPath: path) == tile else { fatalError("\(template): \(tile) wrote \(path), which reads otherwise") }
        }
    }
}
