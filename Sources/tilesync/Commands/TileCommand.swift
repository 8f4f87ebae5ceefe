import TileSync

/// `tilesync tile`: the tile math from the command line.
struct TileCommand: Command {
    static let longitude = OptionDefinition.value("lon", "degrees", help: "Longitude of a point (-180...180).")
    static let latitude = OptionDefinition.value("lat", "degrees", help: "Latitude of a point (-90...90; clamped to +-85.0511).")
    static let zoom = OptionDefinition.value("zoom", "z", help: "Zoom level (0-30).")
    static let quadkey = OptionDefinition.value("quadkey", "digits", help: "A Bing Maps quadkey.")
    static let tileID = OptionDefinition.value("tile-id", "n", help: "A PMTiles tile ID (Hilbert position over all zooms).")
    static let tms = OptionDefinition.flag("tms", help: "Read the given z/x/y as a TMS row (MBTiles tile_row).")
    static let boundingBox = OptionDefinition.value("bbox", "w,s,e,n", help: "A box in degrees: list the tiles covering it.")
    static let minZoom = OptionDefinition.value("min-zoom", "z", help: "With --bbox, --region or --tiles: lowest zoom.")
    static let maxZoom = OptionDefinition.value("max-zoom", "z", help: "With --bbox, --region or --tiles: highest zoom.")
    static let source = OptionDefinition.value(
        "source", "store", help: "With --region or --tiles: a store whose tiles there are counted\nand sized (what a conversion of them would copy); a tile\nserver's bytes are estimated from a sample of requests.")
    static let sample = OptionDefinition.value(
        "sample", "n", help: "With --source of a tile server: tiles asked for to estimate the\nbytes (default 100; zooms of at most 8 tiles are asked whole).")
    static let json = OptionDefinition.flag("json", help: "Print the result as JSON.")

    static let spec = CommandSpec(
        name: "tile",
        abstract: "Show a tile's XYZ and TMS coordinates, quadkey, PMTiles tile ID and bounds; or the tiles covering a box.",
        discussion: """
            Give a tile as z/x/y (XYZ), or a point with --lon, --lat and --zoom, or a quadkey with
            --quadkey, or a PMTiles tile ID with --tile-id. With --bbox, list the tile ranges covering the box at --zoom (or from
            --min-zoom to --max-zoom) and the zoom whose single tile fits the box. With --region, count the tiles a GeoJSON
            region covers per zoom and in total, and with --source how many of them a store holds and their bytes
            (a tile server: estimated from --sample requests, with the 95% margin). With --tiles, the same for the
            tiles of an expire list (widened with --expand-zooms; all its zooms unless --min-zoom/--max-zoom say).
            """,
        arguments: [.init(name: "z/x/y", help: "A tile in XYZ, e.g. 11/327/791.", isOptional: true)],
        options: [longitude, latitude, zoom, quadkey, tileID, tms, boundingBox, FilterOptions.region, FilterOptions.buffer,
                  FilterOptions.border, FilterOptions.tiles, FilterOptions.expandZooms, minZoom, maxZoom, source, sample, json],
        examples: [
            "tilesync tile 11/327/791",
            "tilesync tile --lon 13.4 --lat 52.5 --zoom 10",
            "tilesync tile --tile-id 19078479",
            "tilesync tile --bbox 13.08,52.33,13.77,52.68 --min-zoom 8 --max-zoom 12",
            "tilesync tile --region park.geojson --min-zoom 0 --max-zoom 16",
            "tilesync tile --region route.geojson --buffer 2km --max-zoom 14 --source world.pmtiles",
            "tilesync tile --tiles expire.list --expand-zooms 0-14 --source tiles.mbtiles",
        ])

    /// What to show: one tile, or the tiles covering a box at some zooms.
    enum Question {
        case tile(TileCoordinate)
        case box(BoundingBox, zooms: ClosedRange<Int>)
        case selection(SelectionTileCount)
    }

    let question: Question
    let printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        printsJSON = arguments.flag(Self.json)
        let zoom = try arguments.integer(Self.zoom, in: 0...TileCoordinate.maxZoom)
        if let selection = try Self.selection(arguments, zoom: zoom) {
            question = .selection(selection)
            return
        }
        guard !arguments.isGiven(Self.source) else { throw UsageError("--source needs --region FILE or --tiles FILE", spec: Self.spec) }
        guard !arguments.isGiven(Self.sample) else { throw UsageError("--sample needs --region FILE or --tiles FILE, and --source", spec: Self.spec) }
        if let text = arguments.value(Self.boundingBox) {
            let box: BoundingBox
            do {
                box = try BoundingBox(parsing: text)
            } catch {
                throw UsageError("--bbox: \(error.description)", spec: Self.spec)
            }
            question = .box(box, zooms: try Self.zooms(arguments, zoom: zoom, option: "--bbox"))
            return
        }
        question = .tile(try Self.coordinate(arguments, zoom: zoom))
    }

    /// `--region` or `--tiles` with their zooms and source, nil when neither is given.
    private static func selection(_ arguments: ParsedArguments, zoom: Int?) throws -> SelectionTileCount? {
        let given = [FilterOptions.region, FilterOptions.tiles, Self.boundingBox].filter { arguments.isGiven($0) }
        guard given.count <= 1 else {
            throw UsageError("give one of \(given.map { "--" + $0.name }.joined(separator: ", ")), not several", spec: Self.spec)
        }
        let selection: SelectionTileCount.Selection
        let zooms: ClosedRange<Int>
        if let region = try FilterOptions.region(arguments) {
            selection = .region(region)
            zooms = try Self.zooms(arguments, zoom: zoom, option: "--region")
        } else if let list = try FilterOptions.tileList(arguments, skipsInvalidLines: false) {
            selection = .list(list)
            let givesZooms = zoom != nil || arguments.isGiven(Self.minZoom) || arguments.isGiven(Self.maxZoom)
            zooms = givesZooms ? try Self.zooms(arguments, zoom: zoom, option: "--tiles") : list.zoomRange ?? 0...0
        } else {
            return nil
        }
        var source: TileStoreLocation?
        if let text = arguments.value(Self.source) {
            source = try StoreArgument.location(text, options: TileStoreOptions(), kindOptions: StoreKindOptions(arguments, uses: [.read]),
                                                use: .read, flags: { "--\($0)" }, spec: Self.spec)
        }
        return SelectionTileCount(selection: selection, zooms: zooms, source: source,
                                  sampleSize: try arguments.integer(Self.sample, in: 1...100_000) ?? 100)
    }

    private static func zooms(_ arguments: ParsedArguments, zoom: Int?, option: String) throws -> ClosedRange<Int> {
        let minZoom = try arguments.integer(Self.minZoom, in: 0...TileCoordinate.maxZoom) ?? zoom
        let maxZoom = try arguments.integer(Self.maxZoom, in: 0...TileCoordinate.maxZoom) ?? zoom ?? minZoom
        guard let low = minZoom ?? maxZoom, let high = maxZoom, low <= high else {
            throw UsageError("\(option) needs --zoom, or --min-zoom and --max-zoom with min <= max", spec: Self.spec)
        }
        return low...high
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        switch question {
        case .tile(let tile): show(tile)
        case .box(let box, let zooms): try show(box, zooms: zooms)
        case .selection(let selection): try selection.show(json: printsJSON)
        }
        return 0
    }

    private func show(_ tile: TileCoordinate) {
        let bounds = WebMercator.bounds(of: tile)
        if printsJSON {
            Terminal.out(JSONWriter.text(.object([
                ("z", .int(tile.z)), ("x", .int(tile.x)), ("y", .int(tile.y)), ("tms_y", .int(tile.tmsY)),
                ("quadkey", .string(tile.quadkey)), ("pmtiles_tile_id", .int(Int(TileID.id(of: tile)))),
                ("bounds", .string(bounds.description)),
            ])))
        } else {
            Terminal.out("""
                xyz:      \(tile.z)/\(tile.x)/\(tile.y)
                tms:      \(tile.z)/\(tile.x)/\(tile.tmsY)  (MBTiles zoom_level \(tile.z), tile_column \(tile.x), tile_row \(tile.tmsY))
                quadkey:  \(tile.quadkey.isEmpty ? "(empty at zoom 0)" : tile.quadkey)
                pmtiles:  tile ID \(TileID.id(of: tile))
                bounds:   \(bounds.description)  (west,south,east,north)
                """)
        }
    }

    private static func coordinate(_ arguments: ParsedArguments, zoom: Int?) throws -> TileCoordinate {
        if let text = arguments.positionals.first {
            let parsed = try TileCoordinate(parsing: text)
            return arguments.flag(tms) ? try TileCoordinate(z: parsed.z, x: parsed.x, tmsY: parsed.y) : parsed
        }
        if let quadkey = arguments.value(quadkey) { return try TileCoordinate(quadkey: quadkey) }
        if let id = try arguments.integer(tileID, in: 0...Int(TileID.end - 1)) {
            let (z, x, y) = try TileID.zxy(of: UInt64(id))
            return try TileCoordinate(z: z, x: x, y: y)
        }
        guard let lon = try arguments.double(longitude), let lat = try arguments.double(latitude), let zoom else {
            throw UsageError("give a tile z/x/y, or --lon, --lat and --zoom, or --quadkey, or --bbox", spec: spec)
        }
        return try WebMercator.tile(longitude: lon, latitude: lat, zoom: zoom)
    }

    private func show(_ box: BoundingBox, zooms: ClosedRange<Int>) throws {
        let ranges = try WebMercator.tileRanges(covering: box, zooms: zooms)
        let fit = try WebMercator.zoom(fitting: box)
        if printsJSON {
            Terminal.out(JSONWriter.text(.object([
                ("bbox", .string(box.description)),
                ("fitting_zoom", .int(fit)),
                ("tiles", .int(ranges.reduce(0) { $0 + $1.count })),
                ("ranges", .array(ranges.map { range in
                    .object([("zoom", .int(range.z)),
                             ("columns", .array([.int(range.columns.lowerBound), .int(range.columns.upperBound)])),
                             ("rows", .array([.int(range.rows.lowerBound), .int(range.rows.upperBound)])),
                             ("tiles", .int(range.count))])
                })),
            ])))
            return
        }
        var lines = ["bbox:     \(box.description)", "fits one tile at zoom \(fit)"]
        for range in ranges {
            lines.append("  z\(range.z): x \(range.columns.lowerBound)-\(range.columns.upperBound), y \(range.rows.lowerBound)-\(range.rows.upperBound) (\(range.count) tiles)")
        }
        lines.append("total:    \(ranges.reduce(0) { $0 + $1.count }) tiles")
        Terminal.out(lines.joined(separator: "\n"))
    }
}
