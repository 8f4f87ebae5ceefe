import Foundation
#if canImport(CryptoKit)
import CryptoKit
#else
import CTileSyncCrypto
#endif

/// Incremental MD5: OpenSSL's libcrypto (EVP) on Linux, CryptoKit on Apple platforms, and
/// `PortableMD5` where libcrypto refuses MD5 (a FIPS provider) or cannot make a context.
/// MD5 is used as martin's `mbtiles` tool uses it, to identify content, not for security.
final class MD5Hasher {
    #if canImport(CryptoKit)
    private var hasher = Insecure.MD5()
    #else
    private let context: OpaquePointer?
    private var portable: PortableMD5?
    private var failure: DigestError?
    #endif

    /// - Parameter libcrypto: false hashes in Swift even where libcrypto works (for tests).
    init(libcrypto: Bool = true) {
        #if !canImport(CryptoKit)
        var context: OpaquePointer?
        if libcrypto, let made = EVP_MD_CTX_new() {
            if EVP_DigestInit_ex(made, EVP_md5(), nil) == 1 {
                context = made
            } else {
                EVP_MD_CTX_free(made)
            }
        }
        self.context = context
        portable = context == nil ? PortableMD5() : nil
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
        if portable != nil {
            portable?.update(bytes)
        } else if let base = bytes.baseAddress, EVP_DigestUpdate(context, base, bytes.count) != 1 {
            failure = failure ?? DigestError(operation: "EVP_DigestUpdate")
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
        #else
        if portable != nil { return portable?.finalize() ?? .unknown }
        if let failure { throw failure }
        var digest = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 16 else {
            throw DigestError(operation: "EVP_DigestFinal_ex")
        }
        return ContentHash(bytes: digest)
        #endif
    }

    /// MD5 of one buffer.
    static func hash(_ data: Data) -> ContentHash {
        #if canImport(CryptoKit)
        return ContentHash(bytes: Array(Insecure.MD5.hash(data: data)))
        #else
        return hash(data, with: OneShotDigest.md5)
        #endif
    }

    #if !canImport(CryptoKit)
    /// MD5 of one buffer through `digest`, in Swift when it is unavailable or fails.
    static func hash(_ data: Data, with digest: OneShotDigest) -> ContentHash {
        digest.digest(data) ?? PortableMD5.hash(data)
    }
    #endif
}
