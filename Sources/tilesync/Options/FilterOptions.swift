import TileSync

/// `--min-zoom`, `--max-zoom`, `--bbox`, `--shard`: which tiles a command covers.
struct FilterOptions {
    static let minZoom = OptionDefinition.value("min-zoom", "z", help: "Lowest zoom level to include (0-30).")
    static let maxZoom = OptionDefinition.value("max-zoom", "z", help: "Highest zoom level to include (0-30).")
    static let boundingBox = OptionDefinition.value("bbox", "w,s,e,n", help: "Only tiles touching this box (degrees, WGS 84).")
    static let shard = OptionDefinition.value(
        "shard", "I/N", help: "Only part I of N (0 <= I < N) of the tile space, by tile-ID ranges\nper zoom: N runs together do one run's work.")
    static let definitions = [minZoom, maxZoom, boundingBox, shard]

    /// The tiles allowed (`.all` when no option was given).
    let filter: TileFilter
    /// True when any of them was given.
    let isGiven: Bool

    /// - Throws: `UsageError` for zooms out of range, min above max, or a malformed box.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let minZoom = try arguments.integer(Self.minZoom, in: 0...TileCoordinate.maxZoom) ?? 0
        let maxZoom = try arguments.integer(Self.maxZoom, in: 0...TileCoordinate.maxZoom) ?? TileCoordinate.maxZoom
        guard minZoom <= maxZoom else {
            throw UsageError("--min-zoom \(minZoom) is above --max-zoom \(maxZoom)", spec: arguments.spec)
        }
        let box = try Self.boundingBox(arguments)
        var shard: TileShard?
        if let text = arguments.value(Self.shard) {
            do {
                shard = try TileShard(parsing: text)
            } catch {
                throw UsageError("--shard: \(error.description)", spec: arguments.spec)
            }
        }
        do {
            filter = try TileFilter(minZoom: minZoom, maxZoom: maxZoom, boundingBox: box, shard: shard)
        } catch {
            throw UsageError(error.description, spec: arguments.spec)
        }
        isGiven = Self.definitions.contains { arguments.isGiven($0) }
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
