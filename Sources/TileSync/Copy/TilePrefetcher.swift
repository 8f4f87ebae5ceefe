import Foundation

/// Reads tiles on a second thread, a bounded number of bytes ahead of the writer, and hashes
/// them (MD5, a batch at a time with `MultiLaneMD5`; a blob that keeps repeating is compared
/// rather than hashed again, `RepeatedBlobDigests`) when the destination needs each hash before
/// writing: there, or on a third thread when the writer does little per tile (so that reading,
/// hashing and writing share the cores); the writing thread takes them in batches. Errors
/// arrive in stream order, after the tiles read before them.
///
/// Only the prefetching thread touches the source while it runs; `stop()` (or the end of the
/// stream) ends it, and `stop()` waits for it, so the source can be closed afterwards.
final class TilePrefetcher: @unchecked Sendable {
    private enum Item {
        case tile(Tile, ContentHash)
        case failure(any Error)
    }

    private static let handOverBytes = 256 << 10

    private let read: () throws -> Tile?
    private let transform: (([Tile]) throws -> [Tile])?
    private let hashes: Bool
    private let hashingThread: Bool
    /// Tiles ready for the writing thread.
    private let queue = BoundedBatchQueue<Item>(maxBytes: 1 << 20)
    /// Tiles read, waiting for the hashing thread (only when hashing).
    private let unhashed = BoundedBatchQueue<Item>(maxBytes: 512 << 10)
    /// Tiles read, waiting for the transforming thread (only with a transform).
    private let untransformed = BoundedBatchQueue<Item>(maxBytes: 1 << 20)
    private var taken: [Item] = []
    private var takenIndex = 0

    /// Starts reading.
    /// - Parameters:
    ///   - hashes: compute each tile's MD5 (else `ContentHash.unknown`).
    ///   - hashingThread: on a thread of its own rather than the prefetching thread.
    ///   - transform: applied to each batch before it is hashed (a recompression), on a thread
    ///     of its own between reading and hashing (it spreads a batch over the cores), so that
    ///     reading goes on meanwhile; an error ends the stream there.
    ///   - read: the next tile of the source, nil at its end (called on the prefetching thread).
    init(hashes: Bool, hashingThread: Bool = false, transform: (([Tile]) throws -> [Tile])? = nil,
         read: @escaping () throws -> Tile?) {
        self.read = read
        self.transform = transform
        self.hashes = hashes
        self.hashingThread = hashes && hashingThread
        let transformed = self.hashingThread ? unhashed : queue
        let reading = Thread { [self] in readTiles(into: self.transform == nil ? transformed : untransformed) }
        reading.stackSize = 1 << 20
        reading.start()
        if transform != nil {
            let transforming = Thread { [self] in transformTiles(into: transformed) }
            transforming.stackSize = 1 << 20
            transforming.start()
        }
        if self.hashingThread {
            let hashing = Thread { [self] in hash() }
            hashing.stackSize = 1 << 20
            hashing.start()
        }
    }

    deinit {
        stop()
    }

    /// The next tile and its hash, nil at the end of the stream.
    /// - Throws: the error the source threw at this point of the stream.
    func next() throws -> (tile: Tile, hash: ContentHash)? {
        if takenIndex == taken.count {
            takenIndex = 0
            guard queue.take(into: &taken) else { return nil }
        }
        let item = taken[takenIndex]
        takenIndex += 1
        switch item {
        case .tile(let tile, let hash): return (tile, hash)
        case .failure(let error): throw error
        }
    }

    /// Stops reading and waits until the prefetching thread has let go of the source.
    func stop() {
        queue.stop()
        if hashingThread { unhashed.stop() }
        if transform != nil {
            untransformed.stop()
            untransformed.waitUntilFinished()
        }
        if hashingThread { unhashed.waitUntilFinished() }
        queue.waitUntilFinished()
    }

    /// The reading thread: batches of about `handOverBytes` into `output`, hashed here when
    /// neither a transform nor a hashing thread follows.
    private func readTiles(into output: BoundedBatchQueue<Item>) {
        var batch: [Item] = []
        var tiles: [Tile] = []
        var batchBytes = 0
        var ended = false
        var hasher = RepeatedBlobDigests()
        defer { hasher.deallocate() }
        while !ended {
            var failure: (any Error)?
            do {
                if let tile = try read() {
                    tiles.append(tile)
                    batchBytes += tile.data.count
                } else {
                    ended = true
                }
            } catch {
                failure = error
                ended = true
            }
            if ended || batchBytes >= Self.handOverBytes {
                append(tiles, hashing: hashes && !hashingThread && transform == nil, with: &hasher, to: &batch)
                tiles.removeAll(keepingCapacity: true)
                if let failure { batch.append(.failure(failure)) }
                if !output.put(&batch, bytes: batchBytes) { ended = true }
                batchBytes = 0
            }
        }
        output.close()
        output.markFinished()
    }

    /// The transforming thread: each batch read, transformed (and hashed when no thread of its
    /// own does it), in order into `output`; an error ends the stream after the tiles before it.
    private func transformTiles(into output: BoundedBatchQueue<Item>) {
        defer {
            output.close()
            output.markFinished()
        }
        guard let transform else { return }
        var hasher = RepeatedBlobDigests()
        defer { hasher.deallocate() }
        var incoming: [Item] = []
        var outgoing: [Item] = []
        var tiles: [Tile] = []
        reading: while untransformed.take(into: &incoming) {
            var failure: (any Error)?
            for item in incoming {
                switch item {
                case .tile(let tile, _): tiles.append(tile)
                case .failure(let error): failure = error
                }
                if failure != nil { break }
            }
            do {
                append(try transform(tiles), hashing: hashes && !hashingThread, with: &hasher, to: &outgoing)
            } catch {
                failure = error
            }
            tiles.removeAll(keepingCapacity: true)
            if let failure { outgoing.append(.failure(failure)) }
            let bytes = outgoing.reduce(0) { if case .tile(let tile, _) = $1 { $0 + tile.data.count } else { $0 } }
            if !output.put(&outgoing, bytes: bytes) || failure != nil {
                untransformed.stop()
                break reading
            }
        }
    }

    /// `tiles` as items, with their MD5 when `hashing` (else `ContentHash.unknown`).
    private func append(_ tiles: [Tile], hashing: Bool, with hasher: inout RepeatedBlobDigests, to items: inout [Item]) {
        if hashing {
            let digests = hasher.digests(of: tiles.map(\.data))
            for (tile, digest) in zip(tiles, digests) { items.append(.tile(tile, digest)) }
        } else {
            for tile in tiles { items.append(.tile(tile, .unknown)) }
        }
    }

    /// The hashing thread: the MD5 of every tile read, in order, into `queue`.
    private func hash() {
        var hasher = RepeatedBlobDigests()
        defer { hasher.deallocate() }
        var incoming: [Item] = []
        var outgoing: [Item] = []
        var messages: [Data] = []
        while unhashed.take(into: &incoming) {
            messages.removeAll(keepingCapacity: true)
            for case .tile(let tile, _) in incoming { messages.append(tile.data) }
            var digests = hasher.digests(of: messages).makeIterator()
            for item in incoming {
                if case .tile(let tile, _) = item, let digest = digests.next() {
                    outgoing.append(.tile(tile, digest))
                } else {
                    outgoing.append(item)
                }
            }
            let bytes = messages.reduce(0) { $0 + $1.count }
            if !queue.put(&outgoing, bytes: bytes) {
                unhashed.stop()
                break
            }
        }
        queue.close()
        queue.markFinished()
    }
}
