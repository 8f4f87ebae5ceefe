import Foundation
import Testing
import TileSync

/// The code of docs/library.md, compiled and run; `docsMatchThisFile` keeps the two in step.
@Suite("docs/library.md")
struct LibraryTourTests {
    static let worldPath = Fixtures.packageRoot.appendingPathComponent("Samples/world.mbtiles").path

    @Test("Read tiles in an app")
    func readTiles() throws {
        let worldPath = Self.worldPath
        let source = try TileSource(path: worldPath)
        let tile = try source.tile(z: 1, x: 0, y: 0)        // the north-west tile at zoom 1, or nil
        let name = source.metadata["name"]                  // "TileSync sample"
        #expect(tile == FileManager.default.contents(atPath: Fixtures.packageRoot.appendingPathComponent("Samples/world/1/0/0.png").path))
        #expect(name == "TileSync sample")
    }

    @Test("From latitude and longitude to tiles")
    func geography() throws {
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        let row = tile.tmsY                                  // 1256 = 2^11 - 1 - 791: the MBTiles tile_row
        let bounds = WebMercator.bounds(of: tile)            // -122.519531,37.71859,-122.34375,37.857507
        let sameTile = try WebMercator.tile(longitude: -122.45, latitude: 37.78, zoom: 11)
        #expect(row == 1256)
        #expect(bounds.description == "-122.519531,37.71859,-122.34375,37.857507")
        #expect(sameTile == tile)

        let berlin = try WebMercator.tile(longitude: 13.4, latitude: 52.5, zoom: 10)      // 10/550/335
        let region = try BoundingBox(west: 13.08, south: 52.33, east: 13.77, north: 52.68)
        let zoom = try WebMercator.zoom(fitting: region)                                   // 9: one tile holds it
        let zoomForScreen = try WebMercator.zoom(fitting: region, tilesAcross: 4)          // 11 on a 4x4-tile screen
        let ranges = try WebMercator.tileRanges(covering: region, zooms: 8...10)           // 2, 4 and 6 tiles
        let spanZoom = try WebMercator.zoom(fittingLongitudeSpan: 0.7, latitudeSpan: 0.35, centerLatitude: 52.5)
        #expect(berlin.description == "10/550/335")
        #expect(zoom == 9 && zoomForScreen == 11 && spanZoom == 9)
        #expect(ranges.map(\.count) == [2, 4, 6])

        let directory = try TemporaryDirectory()
        let parkPath = directory.file("park.geojson"), routePath = directory.file("route.geojson")
        try Data((RegionShapeSamples.all["star with hole"] ?? "").utf8).write(to: URL(fileURLWithPath: parkPath))
        try Data(#"{"type":"LineString","coordinates":[[13.37,52.52],[11.58,48.14]]}"#.utf8).write(to: URL(fileURLWithPath: routePath))
        let park = try TileRegion(geoJSONFile: parkPath)                                    // polygons, holes respected
        let trip = try TileRegion(geoJSONFile: routePath, buffer: GroundDistance(parsing: "2km"), border: 1)
        let tilesAtTwelve = park.tileCount(atZoom: 12)                                      // 57
        let rows = park.cover(atZoom: 12).ranges                                            // column runs per band of rows
        let onlyThePark = try TileFilter(minZoom: 0, maxZoom: 16, region: park)            // for convert, sync, diff, verify
        #expect(tilesAtTwelve == 57)
        #expect(rows.reduce(0) { $0 + $1.count } == 57)
        #expect(onlyThePark.contains(try WebMercator.tile(longitude: 13.4, latitude: 52.7, zoom: 14)))
        #expect(!onlyThePark.contains(try WebMercator.tile(longitude: 13.4, latitude: 52.51, zoom: 14)))
        #expect(trip.cover(atZoom: 10).tileCount > 20)
    }

    @Test("Async: Swift concurrency")
    func async() async throws {
        let directory = try TemporaryDirectory()
        let worldPath = Self.worldPath, archivePath = directory.file("world.pmtiles")
        let world = try await TileSource.open(path: worldPath)
        let northWest = try await world.loadTile(z: 1, x: 0, y: 0)     // Data, or nil where there is none
        #expect(northWest == FileManager.default.contents(atPath: Fixtures.packageRoot.appendingPathComponent("Samples/world/1/0/0.png").path))

        let conversion = TileConverter.conversion(from: try TileStoreLocation(parsing: worldPath),
                                                  to: try TileStoreLocation(parsing: archivePath))
        var seen = 0
        for await progress in conversion.progress { print(progress.tilesDone) }   // ... 85
        let converted = try await conversion.value
        #expect(converted.tilesWritten == 85)
        seen = try StoreContents.tiles(archivePath).count
        #expect(seen == 85)

        let source = try TileStoreLocation(parsing: worldPath), destination = try TileStoreLocation(parsing: directory.file("copy.mbtiles"))
        let copying = Task { try await TileConverter.convert(from: source, to: destination) }
        copying.cancel()                                    // no destination is left behind
        do {
            _ = try await copying.value
            #expect(FileManager.default.fileExists(atPath: destination.address), "finished before the cancel landed: a whole store")
        } catch let error as TileStoreError {
            #expect(error.kind == .interrupted)
            #expect(!FileManager.default.fileExists(atPath: destination.address))
        }
    }

    @Test("Inside vector tiles")
    func vectorTiles() throws {
        let mvtBytes = VectorTileTests.sample.encoded()
        let decoded = try VectorTile(decoding: mvtBytes)
        let places = decoded.layers[0]                                  // name, version, extent, keys, values, features
        let first = places.properties(of: places.features[0])          // [(key: "name", value: .string("Oslo")), ...]
        let points = try places.features[0].rings()                     // [[(x: 25, y: 17)]]: tile coordinates
        let bytes = decoded.encoded()                                    // decodes to the same layers
        let defects = VectorTile.problems(in: mvtBytes)                  // what `verify --deep` reports; [] when sound
        #expect(places.name == "places" && first[0].key == "name" && first[0].value == .string("Oslo"))
        #expect(points.count == 1 && points[0][0] == (x: 25, y: 17) && bytes == mvtBytes && defects == [])
    }

    @Test("Re-encode raster tiles", .enabled(if: RasterReencoder.isAvailable))
    func rasterEncoding() throws {
        let directory = try TemporaryDirectory()
        let worldPath = Self.worldPath, offlinePath = directory.file("offline.mbtiles")
        let tileData = try #require(try TileSource(path: worldPath).tile(z: 1, x: 0, y: 0))
        var options = TileConverter.Options()
        var webp = RasterReencoder.Encoding(format: .webp)
        webp.lossless = true                                // every RGBA byte kept
        webp.dropEmpty = true                               // fully transparent tiles not written
        options.transforms.rasterEncoding = webp
        let packed = try TileConverter.convert(from: TileStoreLocation(parsing: worldPath),
                                               to: TileStoreLocation(parsing: offlinePath), options: options)
        print(packed.rasterReencoding?.bytesAfter ?? 0)     // bytes of the tiles written
        #expect(packed.rasterReencoding?.bytesAfter == packed.bytesWritten)

        let pixels = try RasterReencoder.decode(tileData)   // RasterReencoder.Image: width, height, rgba
        #expect(pixels.width == 256 && pixels.height == 256)
        let written = try #require(try TileSource(path: offlinePath).tile(z: 1, x: 0, y: 0))
        #expect(try RasterReencoder.decode(written).hasSamePixels(as: pixels))
    }

    @Test("Convert and sync")
    func convertAndSync() throws {
        let directory = try TemporaryDirectory()
        let worldPath = Self.worldPath, folderPath = directory.file("world"), mirrorPath = directory.file("mirror.mbtiles")
        let missingPath = directory.file("missing.mbtiles")
        let copy = try TileConverter.convert(from: TileStoreLocation(parsing: worldPath),
                                             to: TileStoreLocation(parsing: folderPath))
        print(copy.tilesWritten, copy.distinctBlobs)        // 85 70
        #expect((copy.tilesWritten, copy.distinctBlobs) == (85, 70))

        var options = TileSynchronizer.Options()
        options.delete = true
        let result = try TileSynchronizer.sync(from: TileStoreLocation(parsing: folderPath),
                                               to: TileStoreLocation(parsing: mirrorPath), options: options)
        print(result.added, result.unchanged)               // 85 0 the first time, 0 85 after
        #expect((result.added, result.unchanged) == (85, 0))
        let again = try TileSynchronizer.sync(from: TileStoreLocation(parsing: folderPath),
                                              to: TileStoreLocation(parsing: mirrorPath), options: options)
        #expect((again.added, again.unchanged) == (0, 85))

        let packedPath = directory.file("packed.mbtiles"), treePath = directory.file("tms")
        // What belongs to one store travels with its location; each kind reads the options it knows.
        var packed = try TileStoreLocation(parsing: packedPath)     // a new .mbtiles
        packed.options.deduplicate = true                           // one images row per distinct blob
        var tree = try TileStoreLocation(parsing: treePath)         // a new folder
        tree.options.layout = try PathTemplate("{z}/{x}/{-y}.{ext}")   // TMS rows
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: worldPath), to: packed)
        _ = try TileConverter.convert(from: packed, to: tree)
        #expect(try TileStoreLocation(parsing: packedPath).openReader().schemaDescription == "normalized")
        #expect(FileManager.default.contents(atPath: treePath + "/1/0/1.png")
            == FileManager.default.contents(atPath: Fixtures.packageRoot.appendingPathComponent("Samples/world/1/0/0.png").path))

        var caught = false
        do {
            _ = try TileSource(path: missingPath)
        } catch let error as TileStoreError where error.kind == .notFound {
            print(error)                                    // ".../missing.mbtiles: no such file"
            caught = "\(error)" == missingPath + ": no such file"
        }
        #expect(caught)
    }

    @Test("PMTiles")
    func pmtiles() throws {
        let directory = try TemporaryDirectory()
        let worldPath = Self.worldPath, pmtilesPath = directory.file("world.pmtiles")
        let archive = try TileConverter.convert(from: TileStoreLocation(parsing: worldPath),
                                                to: TileStoreLocation(parsing: pmtilesPath))
        let pmtiles = try PMTilesReader(location: TileStoreLocation(parsing: pmtilesPath))
        print(pmtiles.header.addressedTilesCount, pmtiles.header.tileContentsCount)   // 85 70
        let id = try TileID.id(z: 12, x: 3423, y: 1763)                          // 19078479
        let served = try TileSource(path: pmtilesPath).tile(z: 1, x: 0, y: 0)          // the same bytes as the MBTiles
        let amount = try pmtiles.amount(matching: .all, upTo: 1_000_000)               // 85 tiles, from the directories alone
        var limited = TileConverter.Options()
        limited.limits.maxTiles = 50                     // a source of more tiles is refused before the first write
        #expect(amount?.tiles == 85)
        #expect(throws: TileStoreError.self) {
            try TileConverter.convert(from: TileStoreLocation(parsing: pmtilesPath), to: TileStoreLocation(parsing: directory.file("copy.mbtiles")),
                                      options: limited)
        }
        #expect(archive.tilesWritten == 85 && archive.distinctBlobs == 70)
        #expect((pmtiles.header.addressedTilesCount, pmtiles.header.tileContentsCount) == (85, 70))
        #expect(id == 19_078_479)
        #expect(served == (try TileSource(path: worldPath).tile(z: 1, x: 0, y: 0)))
    }

    @Test("Update an offline copy with a patch")
    func patch() throws {
        let directory = try TemporaryDirectory()
        let oldPath = Self.worldPath, newPath = directory.file("new.mbtiles")
        let patchPath = directory.file("patch.mbtiles"), appCopyPath = directory.file("app.mbtiles")
        try FileManager.default.copyItem(atPath: oldPath, toPath: newPath)
        try FileManager.default.copyItem(atPath: oldPath, toPath: appCopyPath)
        let changed = try TileStoreLocation(parsing: newPath).makeUpdater()
        try changed.begin(metadata: try TileStoreLocation(parsing: newPath).openReader().metadata())
        let newTile = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])
        try changed.put(Tile(coordinate: TileCoordinate(z: 1, x: 1, y: 0), data: newTile), hash: ContentHash(of: newTile), modificationTime: 0)
        try changed.finish()
        let made = try TilePatcher.makePatch(from: TileStoreLocation(parsing: oldPath),
                                             to: TileStoreLocation(parsing: newPath), writingTo: patchPath)
        print(made.replaced, made.patchBytes < 100_000)     // 1 true: one tile changed, a small file
        let source = try TileSource(path: appCopyPath)      // the app keeps reading while it applies
        let applied = try TilePatcher.apply(patch: patchPath, to: TileStoreLocation(parsing: appCopyPath))
        print(applied.replaced, applied.afterHash == made.afterHash)   // 1 true
        let screen = try source.withSnapshot { snapshot in  // reads that all see one version
            try [snapshot.tile(z: 1, x: 0, y: 0), snapshot.tile(z: 1, x: 1, y: 0)]
        }
        #expect(made.replaced == 1 && made.patchBytes < 100_000)
        #expect(applied.replaced == 1 && applied.afterHash == made.afterHash)
        #expect(screen[1] == newTile)
        #expect(screen[0] == (try TileSource(path: oldPath).tile(z: 1, x: 0, y: 0)))
    }

    @Test("Every Swift block of docs/library.md appears in this file, so the docs compile")
    func docsMatchThisFile() throws {
        let docs = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = docs.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 13)
        for block in blocks {
            for line in block.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "docs/library.md line not compiled: \(line)")
            }
        }
    }
}
