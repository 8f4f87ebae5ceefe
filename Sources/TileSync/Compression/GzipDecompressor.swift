import CTileSyncZlib
import Foundation

extension GzipCodec {
    /// A gzip or zlib decoder kept open between streams (`inflateReset`), so decoding many small
    /// streams (tiles) does not set zlib up each time, with an output cap so that a hostile
    /// stream cannot claim memory. Not thread-safe: one per thread.
    final class Decompressor {
        private var stream = z_stream()
        private var isReady = false
        /// Output space kept between streams (up to `keptScratchBytes`).
        private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)

        /// Scratch space larger than this is given back after the stream that needed it.
        private static let keptScratchBytes = 1 << 20
        /// Deflate's largest expansion is about 1032:1, so a stream's output is at most this many
        /// times its length (plus a little): a bound on what a gzip trailer's size may be trusted for.
        private static let largestExpansion = 1032

        /// - Throws: `CompressionError` when zlib cannot start.
        init() throws(CompressionError) {
            // 15 + 32: a window of 2^15 and either header (gzip or zlib), found from the first bytes.
            guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw CompressionError(message: "zlib could not start")
            }
            isReady = true
        }

        deinit {
            if isReady { inflateEnd(&stream) }
            scratch.deallocate()
        }

        /// The bytes a gzip or zlib stream holds, as `GzipCodec.decompress` gives them.
        /// - Parameter limit: the most bytes the result may have.
        /// - Throws: `CompressionError` for a damaged or truncated stream, trailing bytes, or more
        ///   than `limit` bytes.
        func decompress(_ input: some ContiguousBytes, limit: Int) throws(CompressionError) -> [UInt8] {
            try withDecompressed(input, limit: limit) { Array($0) }
        }

        /// Runs `body` with the bytes a gzip or zlib stream holds (valid only inside `body`).
        /// - Throws: as `decompress`.
        func withDecompressed<Result>(_ input: some ContiguousBytes, limit: Int,
                                      _ body: (UnsafeRawBufferPointer) -> Result) throws(CompressionError) -> Result {
            guard inflateReset(&stream) == Z_OK else { throw CompressionError(message: "zlib could not reset") }
            defer {
                if scratch.count > Self.keptScratchBytes {
                    scratch.deallocate()
                    scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)
                }
            }
            let produced: Swift.Result<Int, CompressionError> = input.withUnsafeBytes { raw in
                inflateAll(raw, limit: limit)
            }
            let count = try produced.get()
            return body(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
        }

        /// Inflates `raw` into `scratch`, grown as needed up to one byte past `limit` (so that
        /// going past it is seen); the number of bytes produced.
        private func inflateAll(_ raw: UnsafeRawBufferPointer, limit: Int) -> Swift.Result<Int, CompressionError> {
            stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(raw.count)
            let ceiling = limit < Int.max ? limit + 1 : limit
            ensureScratch(min(ceiling, Self.expectedSize(of: raw)), keeping: 0)
            var produced = 0
            while true {
                if produced == scratch.count {
                    guard scratch.count < ceiling else { return .failure(.tooLarge(limit)) }
                    ensureScratch(scratch.count > ceiling / 2 ? ceiling : scratch.count * 2, keeping: produced)
                }
                stream.next_out = scratch.baseAddress.map { $0.assumingMemoryBound(to: Bytef.self) + produced }
                stream.avail_out = uInt(min(scratch.count - produced, Int(uInt.max)))
                let before = Int(stream.avail_out)
                // Z_FINISH: a stream that fits the space is inflated without keeping zlib's window.
                let status = inflate(&stream, Z_FINISH)
                produced += before - Int(stream.avail_out)
                if produced > limit { return .failure(.tooLarge(limit)) }
                switch status {
                case Z_STREAM_END:
                    if stream.avail_in != 0 { return .failure(CompressionError(message: "bytes after the end of the gzip stream")) }
                    return .success(produced)
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_out == 0:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(CompressionError(message: "the gzip stream is truncated"))
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return .failure(CompressionError(message: "damaged gzip stream (\(reason))"))
                }
            }
        }

        /// The output space to start with: a gzip stream's trailer gives its size (modulo 2^32)
        /// unless it has several members; trusted only up to what the input could expand to, and
        /// at least 4 KiB. A zlib stream, which says nothing of its size, gets 8 times its length.
        private static func expectedSize(of raw: UnsafeRawBufferPointer) -> Int {
            let bound = raw.count.multipliedReportingOverflow(by: largestExpansion)
            let most = bound.overflow ? Int.max : bound.partialValue + 64
            guard raw.count >= 18, raw[0] == 0x1F, raw[1] == 0x8B else { return max(4 << 10, min(most, raw.count * 8)) }
            let trailer = raw.count - 4
            let size = Int(raw[trailer]) | Int(raw[trailer + 1]) << 8 | Int(raw[trailer + 2]) << 16 | Int(raw[trailer + 3]) << 24
            return max(4 << 10, min(size, most))
        }

        /// Makes `scratch` hold at least `capacity` bytes, keeping its first `kept` bytes.
        private func ensureScratch(_ capacity: Int, keeping kept: Int) {
            guard scratch.count < capacity else { return }
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, capacity), alignment: 16)
            if kept > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[0..<kept])) }
            scratch.deallocate()
            scratch = grown
        }
    }
}
