import Foundation
#if canImport(CryptoKit)
import CryptoKit
#else
import CTileSyncCrypto
#endif

/// Incremental MD5: OpenSSL's libcrypto (EVP) on Linux, CryptoKit on Apple platforms.
/// MD5 is used as martin's `mbtiles` tool uses it, to identify content, not for security.
final class MD5Hasher {
    #if canImport(CryptoKit)
    private var hasher = Insecure.MD5()
    #else
    private let context: OpaquePointer?
    #endif

    init() {
        #if !canImport(CryptoKit)
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_md5(), nil)
        #endif
    }

    deinit {
        #if !canImport(CryptoKit)
        EVP_MD_CTX_free(context)
        #endif
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        hasher.update(bufferPointer: bytes)
        #else
        if let base = bytes.baseAddress { EVP_DigestUpdate(context, base, bytes.count) }
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
    func finalize() -> ContentHash {
        #if canImport(CryptoKit)
        return ContentHash(bytes: Array(hasher.finalize()))
        #else
        var digest = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return ContentHash(bytes: digest)
        #endif
    }

    /// MD5 of one buffer.
    static func hash(_ data: Data) -> ContentHash {
        #if canImport(CryptoKit)
        return ContentHash(bytes: Array(Insecure.MD5.hash(data: data)))
        #else
        return OneShotDigest.md5.digest(data)
        #endif
    }
}
