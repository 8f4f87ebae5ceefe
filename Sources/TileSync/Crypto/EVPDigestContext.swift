#if !canImport(CryptoKit) && canImport(CTileSyncCrypto)
import CTileSyncCrypto

/// One libcrypto digest context (`EVP_MD_CTX`) for one algorithm, freed with the object: the
/// Linux side of `MD5Hasher` and `SHA256Hasher`.
final class EVPDigestContext {
    private let context: OpaquePointer
    private let algorithm: String
    private var failure: DigestError?

    /// nil when libcrypto cannot make the context or refuses the algorithm (MD5 under a FIPS provider).
    /// - Parameters:
    ///   - digest: the algorithm (`EVP_md5()`, `EVP_sha256()`).
    ///   - algorithm: its name, for errors.
    init?(_ digest: OpaquePointer?, algorithm: String) {
        guard let made = EVP_MD_CTX_new() else { return nil }
        guard EVP_DigestInit_ex(made, digest, nil) == 1 else {
            EVP_MD_CTX_free(made)
            return nil
        }
        context = made
        self.algorithm = algorithm
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        if failure == nil, let base = bytes.baseAddress, EVP_DigestUpdate(context, base, bytes.count) != 1 {
            failure = DigestError(operation: "EVP_DigestUpdate", algorithm: algorithm)
        }
    }

    /// The digest of `count` bytes; the context must not be used afterwards.
    /// - Throws: `DigestError` when libcrypto failed on the way.
    func finalize(count: Int) throws(DigestError) -> [UInt8] {
        if let failure { throw failure }
        var digest = [UInt8](repeating: 0, count: count)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == count else {
            throw DigestError(operation: "EVP_DigestFinal_ex", algorithm: algorithm)
        }
        return digest
    }
}
#endif
