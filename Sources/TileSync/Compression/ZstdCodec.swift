#if canImport(CTileSyncZstd)
import CTileSyncZstd
import Foundation

/// Zstandard decoding through the system libzstd, with an output cap.
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
}
#endif
