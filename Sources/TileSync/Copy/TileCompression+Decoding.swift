public import Foundation

extension TileCompression {
    /// A tile's bytes stored in this compression, decompressed (`.none`: the bytes themselves);
    /// at most 64 MiB come out, a guard against decompression bombs.
    /// - Throws: `CompressionError` when the bytes do not decode, decode to more than the limit,
    ///   or are in a compression this build cannot read.
    public func decompressed(_ data: Data) throws(CompressionError) -> Data {
        guard self != .none else { return data }
        return try TileRecompressor.Codecs().withDecoded(data, self) { Data($0) }
    }
}
