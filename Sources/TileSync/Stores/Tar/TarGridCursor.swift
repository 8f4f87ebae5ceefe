#if canImport(CTileSyncArchive)
import Foundation

/// Streams the UTFGrids of a tar archive: `.grid.json` entries (JSON, or JSONP as mb-util writes
/// them) at the grid layout beside the tiles, in archive order. Hard links are not followed.
final class TarGridCursor: UTFGridCursor {
    private let scanner: TarEntryScanner
    private let store: String
    private let filter: TileFilter

    init(scanner: TarEntryScanner, store: String, filter: TileFilter) {
        self.scanner = scanner
        self.store = store
        self.filter = filter
    }

    func next() throws -> UTFGrid? {
        while let found = try scanner.next() {
            guard case .tile(let coordinate, let entryPath, let size) = found, filter.contains(coordinate) else { continue }
            let data = try scanner.readData(size: size, item: entryPath)
            do {
                return try UTFGrid(coordinate: coordinate, document: data)
            } catch {
                throw TileStoreError(.invalidTile, store: store, item: "entry '\(entryPath)'", message: "not a UTFGrid: \(error.reason)")
            }
        }
        return nil
    }
}
#endif
