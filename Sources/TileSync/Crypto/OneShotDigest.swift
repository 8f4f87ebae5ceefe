#if !canImport(CryptoKit)
import Foundation
import CTileSyncCrypto

/// A libcrypto digest fetched once and applied to whole buffers, giving the first 16 bytes of
/// the digest. Fetching once matters: an implicit fetch per call costs about a microsecond.
final class OneShotDigest: @unchecked Sendable {
    static let md5 = OneShotDigest(name: "MD5")

    private let algorithm: OpaquePointer?

    private init(name: String) {
        algorithm = EVP_MD_fetch(nil, name, nil)
    }

    /// The digest of `data`, truncated to 16 bytes.
    func digest(_ data: Data) -> ContentHash {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digest in
            var length: UInt32 = 0
            data.withUnsafeBytes { buffer in
                _ = EVP_Digest(buffer.baseAddress, buffer.count, digest.baseAddress, &length, algorithm, nil)
            }
            var high: UInt64 = 0, low: UInt64 = 0
            for index in 0..<8 { high = high << 8 | UInt64(digest[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(digest[index]) }
            return ContentHash(high: high, low: low)
        }
    }
}
#endif
