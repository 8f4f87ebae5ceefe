import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private temporary file written front to back by a background thread
/// (`SequentialFileOutput`, buffered, without early writeback: it is read back and dropped,
/// never flushed) and read back in aligned ranges once written (`readAligned`): for bulk bytes
/// that wait for their place (a PMTiles writer's blobs). Unlinked as soon as it is created, so
/// nothing is left behind. (Direct I/O both ways was measured too, and not kept.)
final class ScratchSpool {
    let path: String
    private var output: SequentialFileOutput?
    private let reader: RandomAccessFile

    /// - Throws: `POSIXFileError` when the file cannot be created in `folder`.
    init(in folder: String, purpose: String) throws(POSIXFileError) {
        path = AtomicFile.scratchPath(in: folder, purpose: purpose)
        let output = try SequentialFileOutput(path: path, direct: false, writesBackEarly: false)
        do {
            reader = try RandomAccessFile(path: path, direct: false)
        } catch {
            try? output.close()
            unlink(path)
            throw error
        }
        unlink(path)
        self.output = output
    }

    deinit {
        try? output?.close()
    }

    /// Bytes appended.
    private(set) var count: UInt64 = 0

    /// Appends the bytes of `data`.
    /// - Throws: `POSIXFileError` (an earlier background write failed: disk full, I/O error).
    func append(_ data: Data) throws(POSIXFileError) {
        guard let output else { throw POSIXFileError(operation: "append to a closed temporary file", path: path, code: EBADF) }
        var failure: POSIXFileError?
        data.withUnsafeBytes { raw in
            do throws(POSIXFileError) { try output.append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        count += UInt64(data.count)
    }

    /// Ends writing (waits for the background writes); reads may follow.
    /// - Throws: `POSIXFileError` from a write.
    func finishWriting() throws(POSIXFileError) {
        try output?.close()
        output = nil
    }

    /// Reads `count` bytes from `offset` into an aligned buffer of `capacity` bytes, rounding the
    /// range out to the alignment: the requested bytes start at the returned offset in it.
    /// - Throws: `POSIXFileError`, or `EIO`-coded when the file ends before the range.
    func readAligned(at offset: UInt64, count: Int, into buffer: UnsafeMutableRawBufferPointer) throws(POSIXFileError) -> Int {
        try finishWriting()
        let alignment = UInt64(BufferWriteQueue.directAlignment)
        let start = offset / alignment * alignment
        let end = (offset + UInt64(count) + alignment - 1) / alignment * alignment
        guard let base = buffer.baseAddress, Int(end - start) <= buffer.count else {
            throw POSIXFileError(operation: "read a range larger than its buffer", path: path, code: EINVAL)
        }
        let got = try reader.readAvailable(at: start, count: Int(end - start), into: base)
        guard UInt64(got) >= offset + UInt64(count) - start else {
            throw POSIXFileError(operation: "read (the file ends early)", path: path, code: EIO)
        }
        return Int(offset - start)
    }
}
