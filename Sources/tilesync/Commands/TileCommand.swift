import TileSync

/// `tilesync tile`: the tile math from the command line.
enum TileCommand {
    static let spec = CommandSpec(
        name: "tile",
        abstract: "Show a tile's XYZ and TMS coordinates, quadkey and bounds; or the tiles covering a box.",
        discussion: """
            Give a tile as z/x/y (XYZ), or a point with --lon, --lat and --zoom, or a quadkey with
            --quadkey. With --bbox, list the tile ranges covering the box at --zoom (or from
            --min-zoom to --max-zoom) and the zoom whose single tile fits the box.
            """,
        arguments: [.init(name: "z/x/y", help: "A tile in XYZ, e.g. 11/327/791.", isOptional: true)],
        options: [
            .init(name: "lon", valueName: "degrees", help: "Longitude of a point (-180...180)."),
            .init(name: "lat", valueName: "degrees", help: "Latitude of a point (-90...90; clamped to +-85.0511)."),
            .init(name: "zoom", valueName: "z", help: "Zoom level (0-30)."),
            .init(name: "quadkey", valueName: "digits", help: "A Bing Maps quadkey."),
            .init(name: "tms", valueName: nil, help: "Read the given z/x/y as a TMS row (MBTiles tile_row)."),
            .init(name: "bbox", valueName: "w,s,e,n", help: "A box in degrees: list the tiles covering it."),
            .init(name: "min-zoom", valueName: "z", help: "With --bbox: lowest zoom."),
            .init(name: "max-zoom", valueName: "z", help: "With --bbox: highest zoom."),
            .init(name: "json", valueName: nil, help: "Print the result as JSON."),
        ],
        examples: [
            "tilesync tile 11/327/791",
            "tilesync tile --lon 13.4 --lat 52.5 --zoom 10",
            "tilesync tile --bbox 13.08,52.33,13.77,52.68 --min-zoom 8 --max-zoom 12",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        if arguments.value("bbox") != nil { return try runBoundingBox(arguments) }
        let tile = try coordinate(arguments)
        let bounds = WebMercator.bounds(of: tile)
        if arguments.flag("json") {
            Terminal.out(JSONText.render(.object([
                ("z", .int(tile.z)), ("x", .int(tile.x)), ("y", .int(tile.y)), ("tms_y", .int(tile.tmsY)),
                ("quadkey", .string(tile.quadkey)), ("bounds", .string(bounds.description)),
            ])))
        } else {
            Terminal.out("""
                xyz:      \(tile.z)/\(tile.x)/\(tile.y)
                tms:      \(tile.z)/\(tile.x)/\(tile.tmsY)  (MBTiles zoom_level \(tile.z), tile_column \(tile.x), tile_row \(tile.tmsY))
                quadkey:  \(tile.quadkey.isEmpty ? "(empty at zoom 0)" : tile.quadkey)
                bounds:   \(bounds.description)  (west,south,east,north)
                """)
        }
        return 0
    }

    private static func coordinate(_ arguments: ParsedArguments) throws -> TileCoordinate {
        let zoom = try arguments.integer("zoom", in: 0...TileCoordinate.maxZoom, spec: spec)
        if let text = arguments.positionals.first {
            let parsed = try TileCoordinate(parsing: text)
            return arguments.flag("tms") ? try TileCoordinate(z: parsed.z, x: parsed.x, tmsY: parsed.y) : parsed
        }
        if let quadkey = arguments.value("quadkey") { return try TileCoordinate(quadkey: quadkey) }
        guard let lon = try arguments.double("lon", spec: spec), let lat = try arguments.double("lat", spec: spec),
              let zoom else {
            throw UsageError("give a tile z/x/y, or --lon, --lat and --zoom, or --quadkey, or --bbox", spec: spec)
        }
        return try WebMercator.tile(longitude: lon, latitude: lat, zoom: zoom)
    }

    private static func runBoundingBox(_ arguments: ParsedArguments) throws -> Int32 {
        guard let box = try CommandOptions.boundingBox(arguments, spec: spec) else { return 2 }
        let zoom = try arguments.integer("zoom", in: 0...TileCoordinate.maxZoom, spec: spec)
        let minZoom = try arguments.integer("min-zoom", in: 0...TileCoordinate.maxZoom, spec: spec) ?? zoom
        let maxZoom = try arguments.integer("max-zoom", in: 0...TileCoordinate.maxZoom, spec: spec) ?? zoom ?? minZoom
        guard let low = minZoom ?? maxZoom, let high = maxZoom, low <= high else {
            throw UsageError("--bbox needs --zoom, or --min-zoom and --max-zoom with min <= max", spec: spec)
        }
        let ranges = try WebMercator.tileRanges(covering: box, zooms: low...high)
        let fit = try WebMercator.zoom(fitting: box)
        if arguments.flag("json") {
            Terminal.out(JSONText.render(.object([
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
            return 0
        }
        var lines = ["bbox:     \(box.description)", "fits one tile at zoom \(fit)"]
        for range in ranges {
            lines.append("  z\(range.z): x \(range.columns.lowerBound)-\(range.columns.upperBound), y \(range.rows.lowerBound)-\(range.rows.upperBound) (\(range.count) tiles)")
        }
        lines.append("total:    \(ranges.reduce(0) { $0 + $1.count }) tiles")
        Terminal.out(lines.joined(separator: "\n"))
        return 0
    }
}
