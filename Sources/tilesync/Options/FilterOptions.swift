import TileSync

/// `--min-zoom`, `--max-zoom`, `--bbox`, `--region` (`--buffer`, `--border`), `--tiles`
/// (`--expand-zooms`), `--shard`: which tiles a command covers.
struct FilterOptions {
    static let minZoom = OptionDefinition.value("min-zoom", "z", help: "Lowest zoom level to include (0-30).")
    static let maxZoom = OptionDefinition.value("max-zoom", "z", help: "Highest zoom level to include (0-30).")
    static let boundingBox = OptionDefinition.value("bbox", "w,s,e,n", help: "Only tiles touching this box (degrees, WGS 84).")
    static let shard = OptionDefinition.value(
        "shard", "I/N", help: "Only part I of N (0 <= I < N) of the tile space, by tile-ID ranges\nper zoom: N runs together do one run's work.")
    static let region = OptionDefinition.value(
        "region", "file", help: "Only tiles sharing area with the GeoJSON polygons in this file\n(a corridor around lines and points with --buffer).")
    static let buffer = OptionDefinition.value(
        "buffer", "distance", help: "With --region: the corridor's half-width on the ground around\nlines and points (and around polygons), e.g. 500m or 2km.")
    static let border = OptionDefinition.value("border", "n", help: "With --region: n more tiles around the region at every zoom.")
    static let tiles = OptionDefinition.value(
        "tiles", "file", help: "Only the tiles listed in this file: z/x/y a line, as osm2pgsql's expire\noutput writes them (also z x y, z,x,y; # comments); - reads standard\ninput. A bad line stops the run naming it (or, with --skip-invalid\nwhere the command has it, is counted).")
    static let expandZooms = OptionDefinition.value(
        "expand-zooms", "min-max", help: "With --tiles: each listed tile with its ancestors and descendants at\nthese zooms (a z14 list with 0-16: its z0-13 parents, z15-16 children).")
    static let definitions = [minZoom, maxZoom, boundingBox, region, buffer, border, tiles, expandZooms, shard]

    /// The tiles allowed (`.all` when no option was given).
    let filter: TileFilter
    /// True when any of them was given.
    let isGiven: Bool

    /// - Parameter skipsInvalidLines: the command's `--skip-invalid`, which also skips (and
    ///   counts) invalid lines of a tile list.
    /// - Throws: `UsageError` for zooms out of range, min above max, or a malformed box.
    init(_ arguments: ParsedArguments, skipsInvalidLines: Bool = false) throws {
        let minZoom = try arguments.integer(Self.minZoom, in: 0...TileCoordinate.maxZoom) ?? 0
        let maxZoom = try arguments.integer(Self.maxZoom, in: 0...TileCoordinate.maxZoom) ?? TileCoordinate.maxZoom
        guard minZoom <= maxZoom else {
            throw UsageError("--min-zoom \(minZoom) is above --max-zoom \(maxZoom)", spec: arguments.spec)
        }
        let box = try Self.boundingBox(arguments)
        let region = try Self.region(arguments)
        var shard: TileShard?
        if let text = arguments.value(Self.shard) {
            do {
                shard = try TileShard(parsing: text)
            } catch {
                throw UsageError("--shard: \(error.description)", spec: arguments.spec)
            }
        }
        let list = try Self.tileList(arguments, skipsInvalidLines: skipsInvalidLines)
        do {
            filter = try TileFilter(minZoom: minZoom, maxZoom: maxZoom, boundingBox: box, region: region, tiles: list, shard: shard)
        } catch {
            throw UsageError(error.description, spec: arguments.spec)
        }
        isGiven = Self.definitions.contains { arguments.isGiven($0) }
    }

    /// `--region` read (with `--buffer` and `--border`), or nil when absent.
    /// - Throws: `UsageError` for `--buffer`/`--border` without `--region` or malformed values;
    ///   `RegionError` for a region file that cannot be used (exit 1, naming the file).
    static func region(_ arguments: ParsedArguments) throws -> TileRegion? {
        guard let path = arguments.value(Self.region) else {
            for option in [buffer, border] where arguments.isGiven(option) {
                throw UsageError("--\(option.name) needs --region FILE", spec: arguments.spec)
            }
            return nil
        }
        var distance: GroundDistance?
        if let text = arguments.value(buffer) {
            do {
                distance = try GroundDistance(parsing: text)
            } catch {
                throw UsageError("--buffer: \(error.description)", spec: arguments.spec)
            }
        }
        let tiles = try arguments.integer(border, in: 0...TileRegion.maximumBorder) ?? 0
        return try TileRegion(geoJSONFile: path, buffer: distance, border: tiles)
    }

    /// `--tiles` read (widened by `--expand-zooms`; invalid lines skipped with the command's
    /// `--skip-invalid`), or nil when absent.
    /// - Throws: `UsageError` for `--expand-zooms` without `--tiles` or malformed; `TileListError`
    ///   for a list that cannot be used (exit 1, naming the file and line).
    static func tileList(_ arguments: ParsedArguments, skipsInvalidLines: Bool) throws -> TileList? {
        guard let path = arguments.value(tiles) else {
            if arguments.isGiven(expandZooms) { throw UsageError("--expand-zooms needs --tiles FILE", spec: arguments.spec) }
            return nil
        }
        var widening: ClosedRange<Int>?
        if let text = arguments.value(expandZooms) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], (0...TileCoordinate.maxZoom).contains(low),
                  (low...TileCoordinate.maxZoom).contains(high) else {
                throw UsageError("--expand-zooms '\(text)' is not MIN-MAX with 0 <= MIN <= MAX <= \(TileCoordinate.maxZoom)", spec: arguments.spec)
            }
            widening = low...high
        }
        let list = try TileList(path: path, widening: widening, skipInvalid: skipsInvalidLines)
        if list.skippedLines > 0 {
            Terminal.err("Warning: \(path): \(list.skippedLines) invalid line\(list.skippedLines == 1 ? "" : "s") skipped (--skip-invalid)")
        }
        return list
    }

    /// `--bbox` parsed, or nil when absent.
    static func boundingBox(_ arguments: ParsedArguments) throws(UsageError) -> BoundingBox? {
        guard let text = arguments.value(Self.boundingBox) else { return nil }
        do {
            return try BoundingBox(parsing: text)
        } catch {
            throw UsageError("--bbox: \(error.description)", spec: arguments.spec)
        }
    }
}
