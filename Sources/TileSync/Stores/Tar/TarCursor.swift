#if canImport(CTileSyncArchive)
import Foundation

/// Streams the tiles of a tar archive in archive order. Hard-link entries are collected on the
/// way and served in a second pass over the archive, from their target entry's bytes; links
/// whose target is no tile entry of the archive are skipped and named.
final class TarCursor: TileCursor {
    private enum Phase { case entries, links, done }

    private let path: String
    private let template: PathTemplate
    private let filter: TileFilter
    private var scanner: TarEntryScanner
    private var phase = Phase.entries
    private var links: TarLinkTable?
    private var queued: [TileCoordinate] = []
    private var queuedData = Data()
    private var skippedBeforeLinks = SkippedItems()

    private let grids: GridPresence?

    /// - Parameter grids: told, at the end of the archive, whether grid entries were beside the tiles.
    init(path: String, template: PathTemplate, filter: TileFilter, grids: GridPresence? = nil) throws(TileStoreError) {
        self.grids = grids
        self.path = path
        self.template = template
        self.filter = filter
        scanner = try TarEntryScanner(path: path, template: template, companion: template.gridTemplate)
    }

    var skipped: SkippedItems { phase == .entries ? scanner.skipped : skippedBeforeLinks }

    func next() throws -> Tile? {
        while true {
            if let coordinate = queued.popLast() { return Tile(coordinate: coordinate, data: queuedData) }
            switch phase {
            case .done:
                return nil
            case .entries:
                guard let found = try scanner.next() else {
                    skippedBeforeLinks = scanner.skipped
                    grids?.record(filter: filter, sawGrids: scanner.companionsSeen > 0)
                    if let links, links.count > 0 {
                        phase = .links
                        scanner = try TarEntryScanner(path: path, template: template, companion: template.gridTemplate)
                    } else {
                        phase = .done
                    }
                    continue
                }
                switch found {
                case .metadata:
                    continue
                case .link(let coordinate, let entryPath, let target):
                    if filter.contains(coordinate) { try linkTable().add(target: target, coordinate: coordinate, entry: entryPath, position: scanner.position) }
                case .tile(let coordinate, let entryPath, let size):
                    if filter.contains(coordinate) {
                        return Tile(coordinate: coordinate, data: try read(size: size, entryPath: entryPath))
                    }
                }
            case .links:
                guard let found = try scanner.next() else {
                    for (entry, target) in try linkTable().unresolved() {
                        skippedBeforeLinks.record("entry '\(entry)'", reason: "hard link to '\(target)', which is no tile entry of this archive")
                    }
                    links = nil
                    phase = .done
                    continue
                }
                guard case .tile(_, let entryPath, let size) = found else { continue }
                let coordinates = try linkTable().takeCoordinates(linkingTo: entryPath, at: scanner.position)
                if !coordinates.isEmpty {
                    queuedData = try read(size: size, entryPath: entryPath)
                    queued = coordinates.reversed()
                }
            }
        }
    }

    private func read(size: Int64?, entryPath: String) throws -> Data {
        let data = try scanner.readData(size: size, item: entryPath)
        guard !data.isEmpty else {
            throw TileStoreError(.invalidTile, store: path, item: "entry '\(entryPath)'", message: "empty tile (0 bytes)")
        }
        return data
    }

    private func linkTable() throws -> TarLinkTable {
        if let links { return links }
        do {
            let table = try TarLinkTable()
            links = table
            return table
        } catch {
            throw TileStoreError(.io, store: path, message: "cannot create a temporary table for hard links: \(error)")
        }
    }
}
#endif
