#if canImport(CTileSyncZstd)
import CTileSyncZstd
import Foundation

/// Zstandard through the system libzstd: decoding with an output cap, encoding of whole buffers.
enum ZstdCodec {
    /// The bytes of one or more concatenated zstd frames.
    /// - Throws: `CompressionError` for a damaged or truncated stream, or more than `limit` bytes.
    static func decompress(_ input: some ContiguousBytes, limit: Int) throws(CompressionError) -> [UInt8] {
        guard let context = ZSTD_createDStream() else { throw CompressionError(message: "zstd could not start") }
        defer { ZSTD_freeDStream(context) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let result: Result<Void, CompressionError> = input.withUnsafeBytes { raw in
            var source = ZSTD_inBuffer(src: raw.baseAddress, size: raw.count, pos: 0)
            var lastHint = 1
            while source.pos < source.size || lastHint != 0 {
                let (hint, produced) = chunk.withUnsafeMutableBytes { buffer -> (Int, Int) in
                    var target = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                    let hint = ZSTD_decompressStream(context, &target, &source)
                    return (hint, target.pos)
                }
                if ZSTD_isError(hint) != 0 {
                    return .failure(CompressionError(message: "damaged zstd stream (\(String(cString: ZSTD_getErrorName(hint))))"))
                }
                if output.count + produced > limit { return .failure(.tooLarge(limit)) }
                output.append(contentsOf: chunk[0..<produced])
                if source.pos == source.size && hint != 0 && produced == 0 {
                    return .failure(CompressionError(message: "the zstd stream is truncated"))
                }
                lastHint = hint
            }
            return .success(())
        }
        try result.get()
        return output
    }

    /// One zstd frame of `input` (with its content size).
    /// - Parameter level: zstd's level, 1 (fast) to 19 (small); 3 is its default.
    /// - Throws: `CompressionError` when zstd fails (out of memory).
    static func compress(_ input: some ContiguousBytes, level: Int32 = 3) throws(CompressionError) -> [UInt8] {
        let result: Result<[UInt8], CompressionError> = input.withUnsafeBytes { raw in
            var output = [UInt8](repeating: 0, count: ZSTD_compressBound(raw.count))
            let written = output.withUnsafeMutableBytes { buffer in
                ZSTD_compress(buffer.baseAddress, buffer.count, raw.baseAddress, raw.count, level)
            }
            if ZSTD_isError(written) != 0 {
                return .failure(CompressionError(message: "zstd failed (\(String(cString: ZSTD_getErrorName(written))))"))
            }
            output.removeSubrange(written...)
            return .success(output)
        }
        return try result.get()
    }

    /// A zstd encoder whose context is kept between buffers, so encoding many small buffers
    /// (tiles) does not set zstd up each time. Not thread-safe: one per thread.
    final class Compressor {
        private let context: OpaquePointer
        private let level: Int32

        /// - Throws: `CompressionError` when zstd cannot start.
        init(level: Int32 = 3) throws(CompressionError) {
            guard let context = ZSTD_createCCtx() else { throw CompressionError(message: "zstd could not start") }
            self.context = context
            self.level = level
        }

        deinit {
            ZSTD_freeCCtx(context)
        }

        /// One zstd frame of `input`, as `ZstdCodec.compress` makes it.
        /// - Throws: `CompressionError` when zstd fails.
        func compress(_ input: some ContiguousBytes) throws(CompressionError) -> [UInt8] {
            let result: Result<[UInt8], CompressionError> = input.withUnsafeBytes { raw in
                var output = [UInt8](repeating: 0, count: ZSTD_compressBound(raw.count))
                let written = output.withUnsafeMutableBytes { buffer in
                    ZSTD_compressCCtx(context, buffer.baseAddress, buffer.count, raw.baseAddress, raw.count, level)
                }
                if ZSTD_isError(written) != 0 {
                    return .failure(CompressionError(message: "zstd failed (\(String(cString: ZSTD_getErrorName(written))))"))
                }
                output.removeSubrange(written...)
                return .success(output)
            }
            return try result.get()
        }
    }
}
#endif
