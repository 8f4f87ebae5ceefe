#if !canImport(CryptoKit) && canImport(CTileSyncCrypto)
import Foundation
import CTileSyncCrypto

/// A libcrypto digest fetched once and applied to whole buffers, giving the first 16 bytes of
/// the digest. Fetching once matters: an implicit fetch per call costs about a microsecond.
/// A provider may refuse the algorithm (MD5 under FIPS): the digest is then unavailable and
/// callers hash another way.
final class OneShotDigest: @unchecked Sendable {
    /// MD5, or an unavailable digest where libcrypto refuses it.
    static let md5 = OneShotDigest(fetching: "MD5")

    private let algorithm: OpaquePointer?

    /// Fetches an algorithm by name (`EVP_MD_fetch`).
    init(fetching name: String) {
        algorithm = EVP_MD_fetch(nil, name, nil)
    }

    deinit {
        EVP_MD_free(algorithm)
    }

    /// True when libcrypto gave the algorithm.
    var isAvailable: Bool { algorithm != nil }

    /// The digest of `data` truncated to 16 bytes, or nil when the algorithm is unavailable or
    /// `EVP_Digest` fails or gives fewer than 16 bytes.
    func digest(_ data: Data) -> ContentHash? {
        guard let algorithm else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digest -> ContentHash? in
            var length: UInt32 = 0
            let status = data.withUnsafeBytes { buffer in
                EVP_Digest(buffer.baseAddress, buffer.count, digest.baseAddress, &length, algorithm, nil)
            }
            guard status == 1, length >= 16 else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0
            for index in 0..<8 { high = high << 8 | UInt64(digest[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(digest[index]) }
            return ContentHash(high: high, low: low)
        }
    }
}
#endif
