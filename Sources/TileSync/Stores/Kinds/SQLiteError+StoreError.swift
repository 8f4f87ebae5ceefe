extension SQLiteError {
    /// A failure while opening an SQLite-backed store, as a store error of a useful kind.
    func openingError(store: String) -> TileStoreError {
        switch code {
        case .notADatabase:
            TileStoreError(.notATileStore, store: store, message: "not an SQLite database (\(message))")
        case .corrupt:
            TileStoreError(.corrupt, store: store, message: "damaged SQLite database (\(message))",
                           hint: "the file may be truncated; fetch it again")
        case .cannotOpen:
            TileStoreError(.notFound, store: store, message: "cannot open (\(message))")
        case .readOnly:
            TileStoreError(.corrupt, store: store, message: "has an interrupted write (a hot journal beside it) that a read-only reader cannot roll back",
                           hint: "open it once for writing, e.g. `tilesync sync` into it or `sqlite3 FILE 'PRAGMA quick_check'`")
        default:
            TileStoreError(.io, store: store, message: description)
        }
    }

    /// A failure while reading an SQLite-backed store: damage, an interruption, else I/O.
    func readingError(store: String, item: String?) -> TileStoreError {
        switch code {
        case .corrupt, .notADatabase:
            TileStoreError(.corrupt, store: store, item: item, message: "damaged SQLite database (\(message))",
                           hint: "the file may be truncated; fetch it again")
        case .interrupt:
            TileStoreError(.interrupted, store: store, item: item, message: "interrupted")
        default:
            TileStoreError(.io, store: store, item: item, message: description)
        }
    }

    /// A failure while writing, with the disk-full hint when it is one.
    func writingError(store: String, item: String?) -> TileStoreError {
        TileStoreError(.io, store: store, item: item, message: message, hint: code == .full ? TileStoreError.diskFullHint : nil)
    }
}
