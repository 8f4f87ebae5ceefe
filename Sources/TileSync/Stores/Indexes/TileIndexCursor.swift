/// A pull stream of index entries; the same error contract as `TileCursor`.
public protocol TileIndexCursor: AnyObject {
    func next() throws -> TileIndexEntry?
    /// Items passed over because they are not tiles.
    var skipped: SkippedItems { get }
}

/// An index computed by reading every tile and hashing its bytes: tiles are read ahead in
/// batches of about 256 KiB and hashed together (`RepeatedBlobDigests`); an error is thrown after the
/// entries read before it, and reading goes on after it, as with the tile cursor.
final class HashingIndexCursor: TileIndexCursor {
    private static let batchBytes = 256 << 10
    private static let batchTiles = 256

    private let tiles: any TileCursor
    private var hasher = RepeatedBlobDigests()
    private var entries: [TileIndexEntry] = []
    private var position = 0
    private var pendingError: (any Error)?
    private var ended = false

    init(tiles: any TileCursor) {
        self.tiles = tiles
    }

    deinit {
        hasher.deallocate()
    }

    var skipped: SkippedItems { tiles.skipped }

    func next() throws -> TileIndexEntry? {
        if position == entries.count {
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            guard !ended else { return nil }
            readBatch()
            if position == entries.count {
                if let error = pendingError {
                    pendingError = nil
                    throw error
                }
                return nil
            }
        }
        let entry = entries[position]
        position += 1
        return entry
    }

    private func readBatch() {
        entries.removeAll(keepingCapacity: true)
        position = 0
        var batch: [Tile] = []
        var bytes = 0
        while bytes < Self.batchBytes && batch.count < Self.batchTiles {
            do {
                guard let tile = try tiles.next() else {
                    ended = true
                    break
                }
                batch.append(tile)
                bytes += tile.data.count
            } catch {
                pendingError = error
                break
            }
        }
        let digests = hasher.digests(of: batch.map(\.data))
        for (tile, digest) in zip(batch, digests) {
            entries.append(TileIndexEntry(coordinate: tile.coordinate, size: tile.data.count, hash: digest))
        }
    }
}
