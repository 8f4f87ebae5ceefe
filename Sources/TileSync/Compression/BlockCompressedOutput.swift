import Foundation

/// Compresses a file front to back on every core, as pigz and `zstd -T0` do: the bytes are
/// cut into 1 MiB blocks, each compressed on its own (a complete gzip member, or a zstd frame)
/// by a worker, and the results written in order through a `SequentialFileOutput`. Concatenated
/// gzip members and zstd frames are one valid stream for gzip, zstd, GNU tar and libarchive;
/// blocks cost a little ratio (a fresh window each MiB). Memory: at most two blocks per core in
/// flight.
final class BlockCompressedOutput: SequentialByteOutput, @unchecked Sendable {
    /// The compressions it writes.
    enum Compression: Sendable {
        /// zlib level 6, as gzip and libarchive default to.
        case gzip
        /// zstd level 3, zstd's default.
        case zstd
    }

    static let blockSize = 1 << 20

    private let compression: Compression
    private let output: SequentialFileOutput
    private let maxInFlight: Int
    private var block: [UInt8] = []
    private(set) var count = 0

    private let condition = NSCondition()
    private var submitted = 0
    private var nextToWrite = 0
    private var finished: [Int: Result<[UInt8], CompressionError>] = [:]
    private var failure: POSIXFileError?
    private var compressionFailure: CompressionError?

    /// Creates (truncates) `path`.
    /// - Throws: `POSIXFileError` when the file cannot be created.
    init(path: String, compression: Compression) throws(POSIXFileError) {
        self.compression = compression
        output = try SequentialFileOutput(path: path)
        maxInFlight = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        block.reserveCapacity(Self.blockSize)
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(POSIXFileError) {
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, Self.blockSize - block.count)
            block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + chunk]))
            offset += chunk
            count += chunk
            if block.count == Self.blockSize { try submitBlock() }
        }
    }

    func appendZeros(_ zeros: Int) throws(POSIXFileError) {
        var remaining = zeros
        while remaining > 0 {
            let chunk = min(remaining, Self.blockSize - block.count)
            block.append(contentsOf: repeatElement(0, count: chunk))
            remaining -= chunk
            count += chunk
            if block.count == Self.blockSize { try submitBlock() }
        }
    }

    func appendInPlace(_ size: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) throws(POSIXFileError) {
        var failure: POSIXFileError?
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { temporary in
            body(temporary)
            do throws(POSIXFileError) { try append(UnsafeRawBufferPointer(temporary)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func close() throws(POSIXFileError) {
        if !block.isEmpty { try submitBlock() }
        condition.lock()
        while nextToWrite < submitted { condition.wait() }
        let failed = failure
        let compressionFailed = compressionFailure
        condition.unlock()
        if let failed { throw failed }
        if let compressionFailed {
            throw POSIXFileError(operation: "compress (\(compressionFailed.message))", path: output.path, code: EIO)
        }
        try output.close()
    }

    /// Hands the current block to a worker, waiting while too many are in flight.
    private func submitBlock() throws(POSIXFileError) {
        let input = block
        block = []
        block.reserveCapacity(Self.blockSize)
        condition.lock()
        while submitted - nextToWrite >= maxInFlight && failure == nil && compressionFailure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        let index = submitted
        submitted += 1
        condition.unlock()
        let compression = self.compression
        DispatchQueue.global().async { [self] in
            let result = Result<[UInt8], CompressionError> { () throws(CompressionError) -> [UInt8] in
                try Self.compress(input, compression)
            }
            condition.lock()
            finished[index] = result
            writeInOrder()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Writes every finished block that is next in order (called with the lock held).
    private func writeInOrder() {
        while let result = finished.removeValue(forKey: nextToWrite) {
            nextToWrite += 1
            guard failure == nil, compressionFailure == nil else { continue }
            switch result {
            case .success(let bytes):
                bytes.withUnsafeBytes { raw in
                    do throws(POSIXFileError) { try output.append(raw) } catch { failure = error }
                }
            case .failure(let error):
                compressionFailure = error
            }
        }
    }

    private static func compress(_ input: [UInt8], _ compression: Compression) throws(CompressionError) -> [UInt8] {
        switch compression {
        case .gzip: return try GzipCodec.Compressor().compress(input)
        case .zstd:
            #if canImport(CTileSyncZstd)
            return try ZstdCodec.Compressor().compress(input)
            #else
            throw CompressionError(message: "zstd is not supported in this build (no libzstd)")
            #endif
        }
    }
}
