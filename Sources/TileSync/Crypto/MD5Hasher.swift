import Foundation
#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CTileSyncCrypto)
import CTileSyncCrypto
#endif

/// Incremental MD5: OpenSSL's libcrypto (EVP) on Linux, CryptoKit on Apple platforms, and
/// `PortableMD5` where libcrypto refuses MD5 (a FIPS provider), cannot make a context or is not
/// built in (a build without the `LibCrypto` trait).
/// MD5 is used as martin's `mbtiles` tool uses it, to identify content, not for security.
final class MD5Hasher {
    #if canImport(CryptoKit)
    private var hasher = Insecure.MD5()
    #elseif canImport(CTileSyncCrypto)
    private let context: EVPDigestContext?
    private var portable: PortableMD5?
    #else
    private var portable = PortableMD5()
    #endif

    /// - Parameter libcrypto: false hashes in Swift even where libcrypto works (for tests).
    init(libcrypto: Bool = true) {
        #if !canImport(CryptoKit) && canImport(CTileSyncCrypto)
        context = libcrypto ? EVPDigestContext(EVP_md5(), algorithm: "MD5") : nil
        portable = context == nil ? PortableMD5() : nil
        #endif
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        hasher.update(bufferPointer: bytes)
        #elseif !canImport(CTileSyncCrypto)
        portable.update(bytes)
        #else
        if let context {
            context.update(bytes)
        } else {
            portable?.update(bytes)
        }
        #endif
    }

    func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The 16-byte digest; the hasher must not be used afterwards.
    /// - Throws: `DigestError` when libcrypto failed on the way.
    func finalize() throws(DigestError) -> ContentHash {
        #if canImport(CryptoKit)
        return ContentHash(bytes: Array(hasher.finalize()))
        #elseif !canImport(CTileSyncCrypto)
        return portable.finalize()
        #else
        guard let context else { return portable?.finalize() ?? .unknown }
        return ContentHash(bytes: try context.finalize(count: 16))
        #endif
    }

    /// MD5 of one buffer.
    static func hash(_ data: Data) -> ContentHash {
        #if canImport(CryptoKit)
        return ContentHash(bytes: Array(Insecure.MD5.hash(data: data)))
        #elseif canImport(CTileSyncCrypto)
        return hash(data, with: OneShotDigest.md5)
        #else
        return PortableMD5.hash(data)
        #endif
    }

    #if !canImport(CryptoKit) && canImport(CTileSyncCrypto)
    /// MD5 of one buffer through `digest`, in Swift when it is unavailable or fails.
    static func hash(_ data: Data, with digest: OneShotDigest) -> ContentHash {
        digest.digest(data) ?? PortableMD5.hash(data)
    }
    #endif
}
