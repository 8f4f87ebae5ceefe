import TileSync

/// Options shared by several commands, parsed into library types.
enum CommandOptions {
    /// `--min-zoom`, `--max-zoom`, `--bbox`.
    static func filter(_ arguments: ParsedArguments, spec: CommandSpec) throws(UsageError) -> TileFilter {
        let minZoom = try arguments.integer("min-zoom", in: 0...TileCoordinate.maxZoom, spec: spec) ?? 0
        let maxZoom = try arguments.integer("max-zoom", in: 0...TileCoordinate.maxZoom, spec: spec) ?? TileCoordinate.maxZoom
        guard minZoom <= maxZoom else {
            throw UsageError("--min-zoom \(minZoom) is above --max-zoom \(maxZoom)", spec: spec)
        }
        let box = try boundingBox(arguments, spec: spec)
        do {
            return try TileFilter(minZoom: minZoom, maxZoom: maxZoom, boundingBox: box)
        } catch {
            throw UsageError(error.description, spec: spec)
        }
    }

    static func boundingBox(_ arguments: ParsedArguments, spec: CommandSpec) throws(UsageError) -> BoundingBox? {
        guard let text = arguments.value("bbox") else { return nil }
        do {
            return try BoundingBox(parsing: text)
        } catch {
            throw UsageError("--bbox: \(error.description)", spec: spec)
        }
    }

    /// A path template from `--layout`/`--scheme` (or their source variants); nil when neither is given.
    static func layout(_ arguments: ParsedArguments, layoutName: String, schemeName: String,
                       spec: CommandSpec) throws(UsageError) -> PathTemplate? {
        var template: PathTemplate?
        if let text = arguments.value(layoutName) {
            do {
                template = try PathTemplate(text)
            } catch {
                throw UsageError("--\(layoutName): \(error.description)", spec: spec)
            }
        }
        guard let scheme = arguments.value(schemeName) else { return template }
        switch scheme.lowercased() {
        case "xyz":
            if template?.usesTMSRows == true {
                throw UsageError("--\(schemeName) xyz contradicts {-y} in --\(layoutName)", spec: spec)
            }
            return template ?? .xyz
        case "tms": return (template ?? .xyz).withTMSRows()
        default: throw UsageError("--\(schemeName) must be xyz or tms, not '\(scheme)'", spec: spec)
        }
    }
}
