/// A kind of tile transform, as `TileTransforms.kinds` registers it: the options it offers on
/// the command line, how their values become its settings, and the stage it makes for a run.
protocol TileTransformKind {
    /// Its command-line options, in the order help shows them.
    static var commandLineOptions: [TileTransformSettings.CommandLineOption] { get }
    /// Reads the values given for its options (name to text; a flag's is empty; a repeated
    /// option's are joined with newlines) into `settings`; does nothing when none is given.
    /// - Throws: `TileTransformSettings.ValueError` saying what a value must be.
    static func read(_ given: [String: String], into settings: inout TileTransformSettings) throws(TileTransformSettings.ValueError)
    /// Its stage for a run reading `reader`, nil when the settings do not ask for it.
    /// - Throws: `TileStoreError` for settings that contradict the source.
    static func make(_ settings: TileTransformSettings, _ reader: any TileReader) throws -> (any TileTransform)?
}
