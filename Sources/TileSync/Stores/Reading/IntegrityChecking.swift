/// The role of a reader whose store has a structure of its own to check
/// (`TileReaderRoles.integrity`): SQLite's integrity check, a PMTiles archive's directories.
protocol IntegrityChecking: AnyObject {
    /// What the store's own structure says is broken, one line per problem.
    /// - Throws: `TileStoreError` when the check cannot run.
    func integrityProblems() throws -> [String]

    /// What the structure says that does not hold while the tiles are sound (a PMTiles header's
    /// centre outside its zooms), one line each.
    /// - Throws: `TileStoreError` when the check cannot run.
    func integrityWarnings() throws -> [String]
}

extension IntegrityChecking {
    func integrityWarnings() throws -> [String] { [] }
}
