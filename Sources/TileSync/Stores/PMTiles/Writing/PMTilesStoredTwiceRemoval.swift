import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes blobs that a PMTiles written in one pass stored more than once (a blob that came
/// again after `PMTilesRecentBlobs` forgot it): every later copy goes, the tile data after it
/// moves down in place, and each entry's offset follows (to the first copy for the entries of
/// a removed one). The archive stays clustered: the copies kept are still in the order of their
/// first tiles. Every step streams through external sorts, so memory stays bounded whatever the
/// number of entries or copies.
struct PMTilesStoredTwiceRemoval {
    /// One stored blob, as the writer records it.
    struct StoredBlob {
        var hashHigh: UInt64
        var hashLow: UInt64
        var offset: UInt64
        var length: UInt64
    }

    /// A later copy, and where its first copy is (before and after the move).
    private struct Copy {
        var offset: UInt64
        var length: UInt64
        var kept: UInt64
    }

    /// An entry's offset and its index in the entry file, to be moved in offset order.
    private struct EntryPlace {
        var offset: UInt64
        var index: UInt64
    }

    /// Bytes of records each sort holds in memory.
    static let sortBudget = 1 << 20
    /// Bytes moved per read and write.
    static let moveBytes = 1 << 20

    /// Later copies removed, and their bytes.
    private(set) var removedBlobs = 0
    private(set) var removedBytes: UInt64 = 0
    /// The entries with their new offsets (consecutive ones with the same blob merged), or nil
    /// when nothing was stored twice.
    private(set) var entries: PMTilesEntryFile?

    /// Runs the removal on the file at `path`, whose tile data starts at `dataStart` and holds
    /// `dataLength` bytes, and truncates the file after the tile data that is left.
    /// - Parameters:
    ///   - stored: every stored blob, in MD5 then offset order.
    ///   - entries: the archive's entries, in tile-ID order.
    /// - Throws: `POSIXFileError` naming the file.
    init(path: String, folder: String, dataStart: UInt64, dataLength: UInt64, stored: SortedRecords<StoredBlob>,
         entries: PMTilesEntryFile) throws(POSIXFileError) {
        let byOffset = ExternalSorter<Copy>(folder: folder, purpose: "pmtiles-copies", memoryBudget: Self.sortBudget) { $0.offset < $1.offset }
        let byKept = ExternalSorter<Copy>(folder: folder, purpose: "pmtiles-copies", memoryBudget: Self.sortBudget) { $0.kept < $1.kept }
        var first: StoredBlob?
        while let blob = try stored.next() {
            if let kept = first, kept.hashHigh == blob.hashHigh, kept.hashLow == blob.hashLow {
                let copy = Copy(offset: blob.offset, length: blob.length, kept: kept.offset)
                try byOffset.append(copy)
                try byKept.append(copy)
                removedBlobs += 1
                removedBytes += blob.length
            } else {
                first = blob
            }
        }
        guard removedBlobs > 0 else { return }
        let moves = try Self.movedFirstCopies(byOffset: byOffset.sorted(), byKept: byKept.sorted(), folder: folder)
        let places = ExternalSorter<EntryPlace>(folder: folder, purpose: "pmtiles-entry-places", memoryBudget: Self.sortBudget) {
            $0.offset < $1.offset
        }
        try Self.forEach(in: entries) { index, entry throws(POSIXFileError) in
            try places.append(EntryPlace(offset: entry.offset, index: UInt64(index)))
        }
        let descriptor = retryingOnInterrupt { open(path, O_RDWR | O_CLOEXEC) }
        guard descriptor >= 0 else { throw POSIXFileError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var mover = try DataMover(descriptor: descriptor, path: path, dataStart: dataStart)
        let newOffsets = ExternalSorter<EntryPlace>(folder: folder, purpose: "pmtiles-entry-places", memoryBudget: Self.sortBudget) {
            $0.index < $1.index
        }
        let sortedPlaces = try places.sorted()
        var move = try moves.next()
        while let place = try sortedPlaces.next() {
            while let copy = move, copy.offset < place.offset {
                try mover.remove(copy.offset, length: copy.length)
                move = try moves.next()
            }
            let offset = move.flatMap { $0.offset == place.offset ? $0.kept : nil }
            try newOffsets.append(EntryPlace(offset: offset ?? place.offset - mover.removed, index: place.index))
        }
        while let copy = move {
            try mover.remove(copy.offset, length: copy.length)
            move = try moves.next()
        }
        try mover.finish(dataLength: dataLength)
        self.entries = try Self.rewrite(entries, offsets: newOffsets.sorted(), folder: folder)
    }

    /// The later copies in offset order, each with its first copy's offset after the move (the
    /// bytes removed before it subtracted).
    private static func movedFirstCopies(byOffset: SortedRecords<Copy>, byKept: SortedRecords<Copy>,
                                         folder: String) throws(POSIXFileError) -> SortedRecords<Copy> {
        let moved = ExternalSorter<Copy>(folder: folder, purpose: "pmtiles-copies", memoryBudget: sortBudget) { $0.offset < $1.offset }
        var removedBefore: UInt64 = 0
        var next = try byOffset.next()
        while var copy = try byKept.next() {
            while let earlier = next, earlier.offset < copy.kept {
                removedBefore += earlier.length
                next = try byOffset.next()
            }
            copy.kept -= removedBefore
            try moved.append(copy)
        }
        return try moved.sorted()
    }

    /// The entries again with their new offsets, consecutive tile IDs with the same blob as one run.
    private static func rewrite(_ entries: PMTilesEntryFile, offsets: SortedRecords<EntryPlace>,
                                folder: String) throws(POSIXFileError) -> PMTilesEntryFile {
        let rewritten = try PMTilesEntryFile(folder: folder)
        var pending: PMTilesEntry?
        try forEach(in: entries) { _, entry throws(POSIXFileError) in
            var entry = entry
            entry.offset = try offsets.next()?.offset ?? entry.offset
            if var run = pending, run.tileID + UInt64(run.runLength) == entry.tileID, run.offset == entry.offset,
               UInt64(run.runLength) + UInt64(entry.runLength) <= UInt64(UInt32.max) {
                run.runLength += entry.runLength
                pending = run
            } else {
                if let run = pending { try rewritten.append(run) }
                pending = entry
            }
        }
        if let run = pending { try rewritten.append(run) }
        try rewritten.flush()
        return rewritten
    }

    private static func forEach(in entries: PMTilesEntryFile,
                                _ body: (Int, PMTilesEntry) throws(POSIXFileError) -> Void) throws(POSIXFileError) {
        let batch = 4096
        for start in stride(from: 0, to: entries.count, by: batch) {
            for (index, entry) in try entries.read(from: start, count: min(batch, entries.count - start)).enumerated() {
                try body(start + index, entry)
            }
        }
    }

    /// Moves the tile data down over the removed copies, in place (each write lands at or
    /// before what is read next).
    private struct DataMover {
        let descriptor: Int32
        let path: String
        let dataStart: UInt64
        /// Bytes removed so far.
        private(set) var removed: UInt64 = 0
        /// Where the data not yet moved starts.
        private var kept: UInt64 = 0
        private var buffer: [UInt8]

        init(descriptor: Int32, path: String, dataStart: UInt64) throws(POSIXFileError) {
            self.descriptor = descriptor
            self.path = path
            self.dataStart = dataStart
            buffer = [UInt8](repeating: 0, count: PMTilesStoredTwiceRemoval.moveBytes)
        }

        /// Moves the data up to `offset` down and skips the copy there.
        mutating func remove(_ offset: UInt64, length: UInt64) throws(POSIXFileError) {
            try moveDown(upTo: offset)
            removed += length
            kept = offset + length
        }

        /// Moves the rest of the data down and truncates the file after it.
        mutating func finish(dataLength: UInt64) throws(POSIXFileError) {
            try moveDown(upTo: dataLength)
            guard ftruncate(descriptor, off_t(dataStart + dataLength - removed)) == 0 else {
                throw POSIXFileError(operation: "truncate", path: path, code: errno)
            }
        }

        private mutating func moveDown(upTo end: UInt64) throws(POSIXFileError) {
            guard removed > 0 else {
                kept = end
                return
            }
            let descriptor = descriptor, path = path, start = dataStart, removed = removed
            var position = kept
            var failure: POSIXFileError?
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                do throws(POSIXFileError) {
                    while position < end {
                        let count = Int(min(UInt64(raw.count), end - position))
                        try PositionalIO.read(descriptor, at: start + position, count: count, into: base, path: path)
                        try PositionalIO.write(descriptor, at: start + position - removed, count: count, from: base, path: path)
                        position += UInt64(count)
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            kept = end
        }
    }
}
