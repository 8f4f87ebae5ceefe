/// The role of a reader that declares its tiles' compression elsewhere than in the metadata's
/// `compression` key (`TileReaderRoles.compressionDeclaration`): a PMTiles header, a merge of
/// sources, a rewriting reader's target.
protocol CompressionDeclaring: AnyObject {
    /// The compression the store declares for its tiles; nil when it declares none.
    /// - Throws: `TileStoreError` when the store cannot be read.
    func declaredTileCompression() throws -> TileCompression?
}
