#if canImport(CTileSyncBrotli)
import CTileSyncBrotli
import Foundation

/// Brotli through the system libbrotlidec and libbrotlienc: decoding with an output cap,
/// encoding of whole buffers.
enum BrotliCodec {
    /// The bytes of a brotli stream.
    /// - Throws: `CompressionError` for a damaged or truncated stream, trailing bytes, or more than `limit` bytes.
    static func decompress(_ input: some ContiguousBytes, limit: Int) throws(CompressionError) -> [UInt8] {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw CompressionError(message: "brotli could not start") }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let result: Result<Void, CompressionError> = input.withUnsafeBytes { raw in
            var availableIn = raw.count
            var nextIn = raw.bindMemory(to: UInt8.self).baseAddress
            while true {
                var produced = 0
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> BrotliDecoderResult in
                    var availableOut = buffer.count
                    var nextOut = buffer.baseAddress
                    let status = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    produced = buffer.count - availableOut
                    return status
                }
                if output.count + produced > limit { return .failure(.tooLarge(limit)) }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    return availableIn == 0 ? .success(()) : .failure(CompressionError(message: "bytes after the end of the brotli stream"))
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    return .failure(CompressionError(message: "the brotli stream is truncated"))
                default:
                    let code = BrotliDecoderGetErrorCode(state)
                    return .failure(CompressionError(message: "damaged brotli stream (\(String(cString: BrotliDecoderErrorString(code))))"))
                }
            }
        }
        try result.get()
        return output
    }

    /// A brotli stream of `input`.
    /// - Parameter quality: brotli's quality, 0 (fast) to 11 (small).
    /// - Throws: `CompressionError` when brotli fails.
    static func compress(_ input: some ContiguousBytes, quality: Int32 = 6) throws(CompressionError) -> [UInt8] {
        let result: Result<[UInt8], CompressionError> = input.withUnsafeBytes { raw in
            var size = BrotliEncoderMaxCompressedSize(raw.count)
            if size == 0 { size = raw.count + 1024 }
            var output = [UInt8](repeating: 0, count: size)
            let done = output.withUnsafeMutableBufferPointer { buffer in
                BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, raw.count,
                                      raw.bindMemory(to: UInt8.self).baseAddress, &size, buffer.baseAddress)
            }
            guard done == BROTLI_TRUE else { return .failure(CompressionError(message: "brotli failed")) }
            output.removeSubrange(size...)
            return .success(output)
        }
        return try result.get()
    }
}
#endif
