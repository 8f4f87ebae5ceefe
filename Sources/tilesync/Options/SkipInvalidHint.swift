import TileSync

/// The hint an error on one bad tile or grid gets in commands that can pass over it: how to.
enum SkipInvalidHint {
    static let text = "--skip-invalid skips such tiles and counts them"

    /// Runs `body`; an `.invalidTile` error it throws comes back with the hint added.
    static func adding<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TileStoreError where error.kind == .invalidTile {
            throw TileStoreError(.invalidTile, store: error.store, item: error.item, message: error.message,
                                 hint: error.hint.map { "\($0); \(text)" } ?? text)
        }
    }
}
