import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private temporary file written front to back by a background thread
/// (`SequentialFileOutput`, buffered, no early writeback) and read back at offsets once written:
/// for bulk bytes that wait for their place (a PMTiles writer's blobs). Unlinked as soon as it
/// is created, so nothing is left behind.
final class ScratchSpool {
    let path: String
    private var output: SequentialFileOutput?
    private let reader: RandomAccessFile

    /// - Throws: `POSIXFileError` when the file cannot be created in `folder`.
    init(in folder: String, purpose: String) throws(POSIXFileError) {
        path = (folder as NSString).appendingPathComponent(
            ".\(purpose)\(AtomicFile.temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
        let output = try SequentialFileOutput(path: path, direct: false, writesBackEarly: false)
        do {
            reader = try RandomAccessFile(path: path)
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

    /// Reads `count` bytes from `offset`, after `finishWriting()`.
    /// - Throws: `POSIXFileError`.
    func read(at offset: UInt64, count: Int, into target: UnsafeMutableRawPointer) throws(POSIXFileError) {
        try finishWriting()
        try reader.read(at: offset, count: count, into: target)
    }
}
