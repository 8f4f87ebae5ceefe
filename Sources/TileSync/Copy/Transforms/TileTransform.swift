/// One stage of the rewriting that convert, sync and merges apply to each tile on the way.
/// `TileRewriter` runs the stages the kinds of `TileTransforms.kinds` make from the settings, in
/// order; each is one file that says what it does to a tile, to the metadata, and whether it
/// left a tile as it was, with its settings and command-line options (`TileTransformKind`).
protocol TileTransform: Sendable {
    /// A text that changes when the stage's settings do (sync identities, the memo of rewritten
    /// tiles).
    var identity: String { get }
    /// True when a tile costs milliseconds (decoding images): batches then spread one tile an
    /// iteration over the cores.
    var isHeavy: Bool { get }
    /// One tile through the stage.
    /// - Throws: `TileStoreError` `.invalidTile` naming the tile when its bytes cannot be read.
    func apply(_ tile: Tile, codecs: TileRecompressor.Codecs) throws(TileStoreError) -> TileTransformOutcome
    /// What the stage does to the destination's metadata (a compression, a format, the
    /// `vector_layers` left).
    func adjust(_ metadata: inout TileMetadata)
    /// What the user should know at the end of a run (layers named that no tile held).
    func notes() -> [String]
    /// What can be said from the source's metadata alone, for a run that did not look into
    /// every tile itself (a sync whose tiles came from its last run's memo).
    func notes(fromMetadata metadata: TileMetadata) -> [String]
}

extension TileTransform {
    var isHeavy: Bool { false }
    func adjust(_ metadata: inout TileMetadata) {}
    func notes() -> [String] { [] }
    func notes(fromMetadata metadata: TileMetadata) -> [String] { [] }
}
