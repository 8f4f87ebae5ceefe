import Foundation
import TileSync

/// `--layer`, `--exclude-layer`, `--include-field`, `--exclude-field` and `--keep-empty-tiles` of
/// `convert` and `sync`: which layers and attributes of vector tiles are kept. Each takes a
/// comma list and may be repeated.
enum VectorLayerOptions {
    static let layer = OptionDefinition.repeatable("layer", "name,...",
                                                   help: "Keep only these layers of vector tiles (repeatable).")
    static let excludeLayer = OptionDefinition.repeatable("exclude-layer", "name,...",
                                                          help: "Drop these layers of vector tiles (repeatable).")
    static let includeField = OptionDefinition.repeatable("include-field", "[layer:]field,...",
                                                          help: "Keep only these attributes, in one layer or (without layer:, or\nwith *:) in every layer; a layer no kept field names keeps\nall of its own (repeatable).")
    static let excludeField = OptionDefinition.repeatable("exclude-field", "[layer:]field,...",
                                                          help: "Drop these attributes, in one layer or in every layer\n(*:name:en is the attribute name:en of every layer).")
    static let keepEmpty = OptionDefinition.flag("keep-empty-tiles",
                                                 help: "Write vector tiles the layer filter leaves without a layer\n(left out by default, and counted).")

    static let definitions = [layer, excludeLayer, includeField, excludeField, keepEmpty]

    /// The filter asked for, nil when no option of the group is given.
    /// - Throws: `UsageError` for an empty name or a field that names no field.
    static func filter(_ arguments: ParsedArguments) throws(UsageError) -> VectorTile.LayerFilter? {
        guard definitions.contains(where: arguments.isGiven) else { return nil }
        var filter = VectorTile.LayerFilter()
        filter.keptLayers = try names(arguments, layer)
        filter.droppedLayers = try names(arguments, excludeLayer)
        filter.keptFields = try fields(arguments, includeField)
        filter.droppedFields = try fields(arguments, excludeField)
        filter.keepsEmptyTiles = arguments.flag(keepEmpty)
        if let both = filter.keptLayers.intersection(filter.droppedLayers).sorted().first {
            throw UsageError("layer '\(both)' is both kept (--layer) and dropped (--exclude-layer)", spec: arguments.spec)
        }
        return filter
    }

    private static func list(_ arguments: ParsedArguments, _ option: OptionDefinition) throws(UsageError) -> [String] {
        guard let text = arguments.value(option) else { return [] }
        let items = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard !items.contains(where: \.isEmpty) else { throw UsageError("\(option.flagText) has an empty name in '\(text)'", spec: arguments.spec) }
        return items
    }

    private static func names(_ arguments: ParsedArguments, _ option: OptionDefinition) throws(UsageError) -> Set<String> {
        Set(try list(arguments, option))
    }

    private static func fields(_ arguments: ParsedArguments, _ option: OptionDefinition) throws(UsageError) -> Set<VectorTile.LayerFilter.Field> {
        var fields: Set<VectorTile.LayerFilter.Field> = []
        for item in try list(arguments, option) {
            do throws(VectorTile.LayerFilter.ParseError) {
                fields.insert(try VectorTile.LayerFilter.Field(parsing: item))
            } catch {
                throw UsageError("\(option.flagText): \(error)", spec: arguments.spec)
            }
        }
        return fields
    }
}
