/// The tile transforms a run can apply, in the order they run. A new transform is its file (its
/// stage, settings and command-line options) and one line here.
public enum TileTransforms {
    static var kinds: [any TileTransformKind.Type] {
        [
            VectorLayerFilterTransform.self,
            RecompressionTransform.self,
            RasterReencodingTransform.self,
        ]
    }

    /// Every transform's command-line options, in the order the stages run.
    public static var commandLineOptions: [TileTransformSettings.CommandLineOption] { kinds.flatMap { $0.commandLineOptions } }

    /// The settings the command-line values ask for (option name to text; a flag's is empty; a
    /// repeated option's joined with newlines).
    /// - Throws: `TileTransformSettings.ValueError` saying what a value must be.
    public static func settings(parsing given: [String: String]) throws(TileTransformSettings.ValueError) -> TileTransformSettings {
        var settings = TileTransformSettings()
        for kind in kinds { try kind.read(given, into: &settings) }
        return settings
    }

    /// The stages the settings ask for, in order.
    static func stages(_ settings: TileTransformSettings, reader: any TileReader) throws -> [any TileTransform] {
        try kinds.compactMap { try $0.make(settings, reader) }
    }
}
