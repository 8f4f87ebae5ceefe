extension SQLiteConnection {
    /// Starts a read transaction and takes its shared lock at once, so every read until
    /// `COMMIT` sees one version of the file (a rollback journal's writer cannot commit meanwhile).
    /// - Throws: `SQLiteError` when the lock cannot be taken; no transaction is left open then.
    func beginReadTransaction() throws(SQLiteError) {
        do {
            try execute("BEGIN DEFERRED")
            _ = try rows("SELECT count(*) FROM sqlite_master")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
