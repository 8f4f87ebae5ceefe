/// A PMTiles archive that breaks the spec: which part (header, root directory, a leaf at an
/// offset, metadata, a tile) and how.
struct PMTilesFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The part of the archive, e.g. `header`, `root directory`, `leaf directory at 1234`.
    let part: String
    /// What is wrong with it.
    let message: String

    init(_ part: String, _ message: String) {
        self.part = part
        self.message = message
    }

    var description: String { "\(part): \(message)" }

    /// As a store error of kind `.corrupt` naming the archive and the part.
    func storeError(store: String) -> TileStoreError {
        TileStoreError(.corrupt, store: store, item: part, message: message)
    }
}
