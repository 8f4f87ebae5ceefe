import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a clustered PMTiles v3 archive in one pass while its tiles come in ascending tile-ID
/// order (an MBTiles read in tile-ID order, another PMTiles): each new blob goes straight
/// to the tile data, a repeat of a recent one (`PMTilesRecentBlobs`) points back to it, runs of
/// equal consecutive tiles become one entry, and the entries go to a scratch file. Nothing is
/// read twice and nothing is sorted, except, when a blob was forgotten, the MD5s of the stored
/// blobs, to find the ones stored twice and remove them (`endTileData`).
///
/// The sections are where the spec (v3, section 2) allows them to move: header and root in the
/// first 16,384 bytes (zero-padded), then metadata, tile data and leaf directories, the layout
/// `pmtiles verify` accepts as padded. Errors are `POSIXFileError`s naming the file.
final class PMTilesInOrderWriter {
    /// Bytes before the metadata: header and root directory, zero-padded.
    static let reservedBytes = 16_384
    /// Bytes of stored-blob records the sort by MD5 (to find blobs stored twice) holds in memory.
    static let sortBudget = 2 << 20

    let path: String
    let folder: String
    private let metadataLength: Int
    private let dataStart: UInt64
    private var output: SequentialFileOutput?
    private var recent: PMTilesRecentBlobs
    private var stored: ExternalSorter<PMTilesStoredTwiceRemoval.StoredBlob>?
    private(set) var runs: PMTilesEntryRuns

    /// Creates the file at `path` (truncating it) and writes the reserved bytes and the metadata.
    /// - Parameters:
    ///   - folder: where the scratch files go.
    ///   - metadata: the metadata section as it is stored (gzip-compressed JSON).
    ///   - recentBlobLimit: distinct blobs remembered for repeats.
    /// - Throws: `POSIXFileError`.
    init(path: String, folder: String, metadata: [UInt8], recentBlobLimit: Int = PMTilesRecentBlobs.defaultLimit) throws(POSIXFileError) {
        recent = PMTilesRecentBlobs(limit: recentBlobLimit)
        self.path = path
        self.folder = folder
        runs = try PMTilesEntryRuns(folder: folder)
        let output = try SequentialFileOutput(path: path)
        try output.appendZeros(Self.reservedBytes)
        var failure: POSIXFileError?
        metadata.withUnsafeBytes { raw in
            do throws(POSIXFileError) { try output.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        self.output = output
        metadataLength = metadata.count
        dataStart = UInt64(Self.reservedBytes + metadata.count)
        stored = ExternalSorter(folder: folder, purpose: "pmtiles-sort", memoryBudget: Self.sortBudget) { a, b in
            (a.hashHigh, a.hashLow, a.offset) < (b.hashHigh, b.hashLow, b.offset)
        }
    }

    /// True when a tile with this ID may come next: one above every tile ID so far.
    func follows(_ id: UInt64) -> Bool {
        runs.firstTileID == nil || id > runs.lastTileID
    }

    /// Adds the next tile (`follows(id)` must be true).
    /// - Throws: `POSIXFileError` (disk full, I/O error; a blob of 4 GiB or more).
    func add(_ data: Data, id: UInt64, hash: ContentHash) throws(POSIXFileError) {
        guard let output, data.count <= Int(UInt32.max) else {
            throw POSIXFileError(operation: "store a tile of \(data.count) bytes", path: path, code: EFBIG)
        }
        let length = UInt32(data.count)
        let known = recent.place(of: hash).flatMap { $0.length == length ? $0.offset : nil }
        let offset = try runs.place(id, length: length, storedAt: known)
        guard known == nil else { return }
        var failure: POSIXFileError?
        data.withUnsafeBytes { raw in
            do throws(POSIXFileError) { try output.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        try stored?.append(.init(hashHigh: hash.high, hashLow: hash.low, offset: offset, length: UInt64(length)))
        recent.remember(hash, offset: offset, length: length)
    }

    /// Ends the tile data. When a forgotten blob came again (the sorted MD5s of the stored blobs
    /// tell), its later copies are removed (`PMTilesStoredTwiceRemoval`), so that every distinct
    /// blob is stored once.
    /// - Throws: `POSIXFileError`.
    func endTileData() throws(POSIXFileError) {
        try runs.flush()
        let stored = self.stored
        self.stored = nil
        try output?.close()
        output = nil
        guard let stored, recent.hasEvicted else { return }
        let removal = try PMTilesStoredTwiceRemoval(path: path, folder: folder, dataStart: dataStart, dataLength: runs.dataLength,
                                                    stored: stored.sorted(), entries: runs.entries)
        if let entries = removal.entries {
            runs.replaceEntries(with: entries, removedBlobs: removal.removedBlobs, removedBytes: removal.removedBytes)
        }
    }

    /// Completes the archive after `endTileData()`: directories, leaf section, header and root.
    /// - Returns: the header written.
    /// - Throws: `POSIXFileError`, `CompressionError`.
    func finish(metadata: TileMetadata, format: SniffedTileFormat) throws -> PMTilesHeader {
        let directories = try PMTilesDirectoryBuilder.build(runs.entries, folder: folder)
        let header = PMTilesHeaderBuilder.header(metadata: metadata, format: format, runs: runs, sections: .init(
            rootLength: UInt64(directories.root.count), metadataOffset: UInt64(Self.reservedBytes), metadataLength: UInt64(metadataLength),
            leafDirectoriesOffset: dataStart + runs.dataLength, leafDirectoriesLength: directories.leavesLength,
            tileDataOffset: dataStart, tileDataLength: runs.dataLength))
        let path = path
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        if let leaves = directories.leaves {
            let chunk = 1 << 20
            var buffer = [UInt8](repeating: 0, count: min(chunk, Int(leaves.count)))
            var done: UInt64 = 0
            while done < leaves.count {
                let count = Int(min(UInt64(chunk), leaves.count - done))
                var failure: POSIXFileError?
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    do throws(POSIXFileError) {
                        try leaves.read(at: done, count: count, into: base)
                        try PositionalIO.write(descriptor, at: header.leafDirectoriesOffset + done, count: count, from: base, path: path)
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
                done += UInt64(count)
            }
        }
        let front = header.serialized() + directories.root
        var failure: POSIXFileError?
        front.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            do throws(POSIXFileError) { try PositionalIO.write(descriptor, at: 0, count: raw.count, from: base, path: path) } catch { failure = error }
        }
        if let failure { throw failure }
        return header
    }

    /// Hands every tile added so far to `body`, in tile-ID order, with the MD5 of its bytes (read
    /// back from the file), and closes the file: for a writer that must go on another way.
    /// - Throws: `POSIXFileError`, or what `body` throws.
    func replay(_ body: (Tile, ContentHash) throws -> Void) throws {
        try runs.flush()
        stored = nil
        try output?.close()
        output = nil
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        let batch = 4096
        let entries = runs.entries
        for start in stride(from: 0, to: entries.count, by: batch) {
            for entry in try entries.read(from: start, count: min(batch, entries.count - start)) {
                var data = Data(count: Int(entry.length))
                var failure: POSIXFileError?
                data.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    do throws(POSIXFileError) {
                        try PositionalIO.read(descriptor, at: dataStart + entry.offset, count: raw.count, into: base, path: path)
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
                let hash = ContentHash(of: data)
                for id in entry.tileID..<entry.tileID + UInt64(entry.runLength) {
                    let tile = try TileID.zxy(of: id)
                    try body(Tile(coordinate: TileCoordinate(unchecked: tile.z, tile.x, tile.y), data: data), hash)
                }
            }
        }
    }
}
