import Foundation
#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CTileSyncCrypto)
import CTileSyncCrypto
#endif

/// Incremental SHA-256 (libcrypto's EVP on Linux, CryptoKit on Apple platforms, `PortableSHA256`
/// in a build with neither), for a payload
/// hashed a buffer at a time (a multipart upload's part, signed without being held in memory).
final class SHA256Hasher {
    #if canImport(CryptoKit)
    private var hasher = SHA256()
    #elseif !canImport(CTileSyncCrypto)
    private var hasher = PortableSHA256()
    #else
    private let context = EVPDigestContext(EVP_sha256(), algorithm: "SHA-256")
    #endif

    init() {}

    func update(_ bytes: UnsafeRawBufferPointer) {
        #if canImport(CryptoKit)
        hasher.update(bufferPointer: bytes)
        #elseif !canImport(CTileSyncCrypto)
        hasher.update(bytes)
        #else
        context?.update(bytes)
        #endif
    }

    /// The 32-byte digest; the hasher must not be used afterwards.
    /// - Throws: `DigestError` when libcrypto failed on the way (or made no context).
    func finalize() throws(DigestError) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(hasher.finalize())
        #elseif !canImport(CTileSyncCrypto)
        return hasher.finalize()
        #else
        guard let context else { throw DigestError(operation: "EVP_DigestInit_ex", algorithm: "SHA-256") }
        return try context.finalize(count: 32)
        #endif
    }
}
