/// What a sync does at one coordinate, decided from the two index entries: a size difference
/// is a change; in quick mode equal size and modification time mean unchanged, like rsync;
/// otherwise MD5s decide, taken from the listings, from the sync state while size and time
/// still match, or computed by reading the tile.
final class SyncDecision {
    enum Outcome {
        case add(TileIndexEntry)
        /// Only the destination has it, and `delete` is on.
        case delete(TileIndexEntry)
        /// Only the destination has it, kept.
        case keep(TileIndexEntry)
        /// The same bytes on both sides (their MD5 when known).
        case unchanged(TileIndexEntry, TileIndexEntry, ContentHash?)
        /// Different bytes (the source's MD5 when known).
        case replace(TileIndexEntry, ContentHash?)
    }

    private let context: SyncContext
    private let openSourceLookup: () throws -> any TileReader
    private var openedSourceLookup: (any TileReader)?
    private(set) var computedHashes = 0

    /// - Parameter sourceLookup: opens the reader that source tiles are hashed through, when
    ///   the first one must be (a tile server's TileJSON is not fetched again before).
    init(context: SyncContext, sourceLookup: @escaping () throws -> any TileReader) {
        self.context = context
        openSourceLookup = sourceLookup
    }

    private func sourceLookup() throws -> any TileReader {
        if let openedSourceLookup { return openedSourceLookup }
        let reader = try openSourceLookup()
        openedSourceLookup = reader
        return reader
    }

    func decide(_ pair: TileIndexPair) throws -> Outcome {
        switch (pair.source, pair.destination) {
        case (let s?, nil): return .add(s)
        case (nil, let d?): return context.options.delete ? .delete(d) : .keep(d)
        case (let s?, let d?): return try compare(s, d, at: pair.coordinate)
        case (nil, nil): throw TileStoreError(.io, store: context.destination.address, message: "merge gave an empty pair")
        }
    }

    private func compare(_ s: TileIndexEntry, _ d: TileIndexEntry, at coordinate: TileCoordinate) throws -> Outcome {
        guard s.size == d.size else { return .replace(s, s.hash) }
        if !context.options.checksum, let sourceTime = s.modificationTime, sourceTime == d.modificationTime {
            return .unchanged(s, d, s.hash ?? d.hash)
        }
        var sourceHash = s.hash, destinationHash = d.hash
        // The state is asked only for a hash the listings lack (a lookup is an SQLite read).
        let recorded = sourceHash == nil || destinationHash == nil ? try context.state?.entry(at: coordinate) : nil
        if sourceHash == nil, let recorded, recorded.inSource, recorded.size == s.size,
           let time = s.modificationTime, recorded.sourceModificationTime == time {
            sourceHash = recorded.hash
        }
        if destinationHash == nil, let recorded, recorded.size == d.size,
           let time = d.modificationTime, recorded.destinationModificationTime == time {
            destinationHash = recorded.hash
        }
        if sourceHash == nil {
            sourceHash = try sourceLookup().tile(at: coordinate).map { ContentHash(of: $0) }
            computedHashes += 1
        }
        if destinationHash == nil, let reader = context.destinationReader {
            destinationHash = try reader.tile(at: coordinate).map { ContentHash(of: $0) }
            computedHashes += 1
        }
        let same = sourceHash != nil && sourceHash == destinationHash
        return same ? .unchanged(s, d, sourceHash) : .replace(s, sourceHash)
    }
}
