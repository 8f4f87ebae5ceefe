import TileSync

/// `--min-zoom`, `--max-zoom`, `--bbox`, `--region` (`--buffer`, `--border`), `--shard`: which
/// tiles a command covers.
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
    static let definitions = [minZoom, maxZoom, boundingBox, region, buffer, border, shard]

    /// The tiles allowed (`.all` when no option was given).
    let filter: TileFilter
    /// True when any of them was given.
    let isGiven: Bool

    /// - Throws: `UsageError` for zooms out of range, min above max, or a malformed box.
    init(_ arguments: ParsedArguments) throws {
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
        do {
            filter = try TileFilter(minZoom: minZoom, maxZoom: maxZoom, boundingBox: box, region: region, shard: shard)
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
