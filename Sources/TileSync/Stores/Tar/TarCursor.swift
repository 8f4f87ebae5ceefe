import Foundation

/// Streams the tiles of a tar archive in archive order.
final class TarCursor: TileCursor {
    private let scanner: TarEntryScanner
    private let filter: TileFilter
    private let store: String

    init(scanner: TarEntryScanner, filter: TileFilter, store: String) {
        self.scanner = scanner
        self.filter = filter
        self.store = store
    }

    var skipped: SkippedItems { scanner.skipped }

    func next() throws -> Tile? {
        while let found = try scanner.next() {
            guard case .tile(let coordinate, let entryPath, let size) = found, filter.contains(coordinate) else { continue }
            let data = try scanner.readData(size: size, item: entryPath)
            guard !data.isEmpty else {
                throw TileStoreError(.invalidTile, store: store, item: "entry '\(entryPath)'", message: "empty tile (0 bytes)")
            }
            return Tile(coordinate: coordinate, data: data)
        }
        return nil
    }
}
