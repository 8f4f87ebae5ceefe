import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts the repeated blobs of a tile stream in bounded memory, by fingerprint: fingerprints are
/// sorted in runs of 32,768 (768 KiB), runs beyond the first are spilled to an unlinked temporary
/// file, and `finish()` merges them through about 1 MiB of read buffers (at least 256 records per
/// run). Sorting costs far less per tile than an index lookup.
///
/// For streams whose repeated coordinates come one after another (ordered sources): a tile at
/// the coordinate of the tile just before it replaces that tile, as the writers do.
final class FingerprintTally {
    struct Counts {
        var duplicateTiles = 0
        var duplicateBytes = 0
    }

    private struct Record {
        var high: UInt64
        var low: UInt64
        var size: Int

        func precedes(_ other: Record) -> Bool { (high, low) < (other.high, other.low) }
        func sameBlob(_ other: Record) -> Bool { high == other.high && low == other.low }
    }

    static let runLength = 1 << 15
    private static let mergeBudgetRecords = (1 << 20) / MemoryLayout<Record>.stride

    private var buffer: [Record] = []
    private var last: (coordinate: TileCoordinate, record: Record)?
    private var spill: Int32 = -1
    private var spilledBytes = 0
    private var runs: [(offset: Int, count: Int)] = []
    /// Coordinates that came again right after themselves.
    private(set) var repeated = SkippedItems()

    init() {
        buffer.reserveCapacity(Self.runLength)
    }

    deinit {
        if spill >= 0 { close(spill) }
    }

    /// Adds a tile's fingerprint and size in bytes.
    /// - Throws: `POSIXFileError` when a run cannot be spilled (disk full).
    func add(_ coordinate: TileCoordinate, fingerprint: ContentHash, size: Int) throws(POSIXFileError) {
        let record = Record(high: fingerprint.high, low: fingerprint.low, size: size)
        if let last, last.coordinate == coordinate {
            repeated.record("tile \(coordinate)", reason: "appears again")
        } else if let last {
            try append(last.record)
        }
        last = (coordinate, record)
    }

    /// Merges the runs and counts tiles whose blob came earlier in the stream.
    /// - Throws: `POSIXFileError` when a spilled run cannot be read back.
    func finish() throws(POSIXFileError) -> Counts {
        if let last { try append(last.record) }
        last = nil
        buffer.sort { $0.precedes($1) }
        if runs.isEmpty { return Self.count(buffer) }
        try spillBuffer()
        return try mergeRuns()
    }

    private func append(_ record: Record) throws(POSIXFileError) {
        if buffer.count == Self.runLength {
            buffer.sort { $0.precedes($1) }
            try spillBuffer()
        }
        buffer.append(record)
    }

    private static func count(_ sorted: [Record]) -> Counts {
        var counts = Counts()
        var previous: Record?
        for record in sorted {
            if let previous, previous.sameBlob(record) {
                counts.duplicateTiles += 1
                counts.duplicateBytes += record.size
            } else {
                previous = record
            }
        }
        return counts
    }

    private func spillBuffer() throws(POSIXFileError) {
        if spill < 0 { spill = try Self.makeSpillFile() }
        let byteCount = buffer.count * MemoryLayout<Record>.stride
        var failure: POSIXFileError?
        buffer.withUnsafeBytes { bytes in
            var written = 0
            while written < byteCount, let base = bytes.baseAddress {
                let count = retryingOnInterrupt { pwrite(spill, base + written, byteCount - written, off_t(spilledBytes + written)) }
                if count < 0 {
                    failure = POSIXFileError(operation: "write", path: "temporary file of blob fingerprints", code: errno)
                    return
                }
                written += count
            }
        }
        if let failure { throw failure }
        runs.append((spilledBytes, buffer.count))
        spilledBytes += byteCount
        buffer.removeAll(keepingCapacity: true)
    }

    private static func makeSpillFile() throws(POSIXFileError) -> Int32 {
        var template = Array((NSTemporaryDirectory() + "/tilesync-fingerprints-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            let descriptor = mkstemp(base)
            if descriptor >= 0 { unlink(base) }
            return descriptor
        }
        guard descriptor >= 0 else {
            throw POSIXFileError(operation: "create", path: NSTemporaryDirectory(), code: errno)
        }
        return descriptor
    }

    /// One spilled run being read back in blocks.
    private struct RunReader {
        var offset: Int
        var remaining: Int
        let blockLength: Int
        var block: [Record] = []
        var index = 0
    }

    private func mergeRuns() throws(POSIXFileError) -> Counts {
        let blockLength = max(256, Self.mergeBudgetRecords / runs.count)
        var readers = runs.map { RunReader(offset: $0.offset, remaining: $0.count, blockLength: blockLength) }
        var heap: [Int] = []
        for index in readers.indices where try refill(&readers[index]) { heap.append(index) }
        func current(_ run: Int) -> Record { readers[run].block[readers[run].index] }
        func less(_ a: Int, _ b: Int) -> Bool { current(heap[a]).precedes(current(heap[b])) }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && less(left, smallest) { smallest = left }
                if right < heap.count && less(right, smallest) { smallest = right }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        var counts = Counts()
        var previous: Record?
        while let run = heap.first {
            let record = current(run)
            if let previous, previous.sameBlob(record) {
                counts.duplicateTiles += 1
                counts.duplicateBytes += record.size
            } else {
                previous = record
            }
            readers[run].index += 1
            if readers[run].index == readers[run].block.count, try !refill(&readers[run]) {
                heap.swapAt(0, heap.count - 1)
                heap.removeLast()
            }
            siftDown(0)
        }
        return counts
    }

    /// Reads the next block of a run; false when the run is used up.
    private func refill(_ reader: inout RunReader) throws(POSIXFileError) -> Bool {
        guard reader.remaining > 0 else { return false }
        let count = min(reader.remaining, reader.blockLength)
        let byteCount = count * MemoryLayout<Record>.stride
        var block = [Record](repeating: Record(high: 0, low: 0, size: 0), count: count)
        var failure: POSIXFileError?
        block.withUnsafeMutableBytes { bytes in
            var filled = 0
            while filled < byteCount, let base = bytes.baseAddress {
                let read = retryingOnInterrupt { pread(spill, base + filled, byteCount - filled, off_t(reader.offset + filled)) }
                if read <= 0 {
                    failure = POSIXFileError(operation: "read", path: "temporary file of blob fingerprints", code: read < 0 ? errno : EIO)
                    return
                }
                filled += read
            }
        }
        if let failure { throw failure }
        reader.block = block
        reader.index = 0
        reader.offset += byteCount
        reader.remaining -= count
        return true
    }
}
