/// The writers of tile trees (a folder, a tar archive): tiles at the paths of a template, and,
/// with `dedup`, a repeated tile stored as a link to its first copy, found by MD5.
protocol TileTreeWriter: TileWriter, AnyObject {
    var template: PathTemplate { get }
    /// True when repeats are stored as links (`--dedup`).
    var deduplicate: Bool { get }
    /// The extension of the tiles' file names, set by `begin`.
    var fileExtension: String { get set }
}

extension TileTreeWriter {
    /// With `deduplicate`, each tile's MD5 finds its first copy.
    var wantsHashes: Bool { deduplicate }
    var deduplication: TileStoreCapabilities.Deduplication { deduplicate ? .linksRepeats : .none }
    /// The layout's walk order: a folder makes each column folder once, a tar lists its entries
    /// as `tar` of the same tree would.
    var preferredOrder: TileOrder { template.walkOrder }

    /// Takes the tiles' file extension from their format and returns `metadata` with the
    /// template recorded in it (`layout`, `scheme`), as the tree keeps it.
    func beginTree(_ metadata: TileMetadata, format: SniffedTileFormat) -> TileMetadata {
        fileExtension = format.format.fileExtension
        var metadata = metadata
        TileTreeOptions.record(template, in: &metadata)
        return metadata
    }
}
