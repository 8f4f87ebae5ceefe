import CTileSyncZlib
import Foundation

/// gzip (RFC 1952) through the system zlib: decoding with an output cap, so a hostile stream
/// cannot claim memory, and encoding of whole buffers.
enum GzipCodec {
    /// The bytes a gzip or zlib stream holds.
    /// - Parameter limit: the most bytes the result may have.
    /// - Throws: `CompressionError` for a damaged or truncated stream, trailing bytes, or more than `limit` bytes.
    static func decompress(_ input: some ContiguousBytes, limit: Int) throws(CompressionError) -> [UInt8] {
        try Decompressor().decompress(input, limit: limit)
    }

    /// A gzip stream of `input` (no file name, time 0, so equal input gives equal bytes), or
    /// with `zlibHeader` a zlib stream (RFC 1950, as Python's `zlib.compress` makes).
    /// - Parameter level: zlib's level, 1 (fast) to 9 (small).
    /// - Throws: `CompressionError` when zlib cannot start (out of memory).
    static func compress(_ input: some ContiguousBytes, level: Int32 = 6, zlibHeader: Bool = false) throws(CompressionError) -> [UInt8] {
        var stream = z_stream()
        // A window of 2^15; + 16 for a gzip header.
        guard deflateInit2_(&stream, level, Z_DEFLATED, zlibHeader ? 15 : 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw CompressionError(message: "zlib could not start")
        }
        defer { deflateEnd(&stream) }
        return input.withUnsafeBytes { raw -> [UInt8] in
            let bound = Int(deflateBound(&stream, uLong(raw.count)))
            var output = [UInt8](repeating: 0, count: bound)
            stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(raw.count)
            output.withUnsafeMutableBufferPointer { buffer in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                _ = deflate(&stream, Z_FINISH)
            }
            output.removeLast(Int(stream.avail_out))
            return output
        }
    }

    /// A gzip encoder kept open between buffers (`deflateReset`), so encoding many small
    /// buffers (tiles) does not set zlib up each time. Not thread-safe: one per thread.
    final class Compressor {
        private var stream = z_stream()
        private var isReady = false

        /// - Throws: `CompressionError` when zlib cannot start.
        init(level: Int32 = 6) throws(CompressionError) {
            guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw CompressionError(message: "zlib could not start")
            }
            isReady = true
        }

        deinit {
            if isReady { deflateEnd(&stream) }
        }

        /// A gzip stream of `input`, as `GzipCodec.compress` makes it.
        /// - Throws: `CompressionError` when zlib fails.
        func compress(_ input: some ContiguousBytes) throws(CompressionError) -> [UInt8] {
            guard deflateReset(&stream) == Z_OK else { throw CompressionError(message: "zlib could not reset") }
            let result: Result<[UInt8], CompressionError> = input.withUnsafeBytes { raw in
                var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(raw.count))))
                stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(raw.count)
                let status = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return deflate(&stream, Z_FINISH)
                }
                guard status == Z_STREAM_END else { return .failure(CompressionError(message: "zlib failed (\(status))")) }
                output.removeLast(Int(stream.avail_out))
                return .success(output)
            }
            return try result.get()
        }
    }
}
