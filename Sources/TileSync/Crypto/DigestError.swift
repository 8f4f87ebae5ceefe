/// The system's digest library failed while hashing (libcrypto returned an error after it had
/// accepted the algorithm).
struct DigestError: Error, CustomStringConvertible {
    /// The call that failed, e.g. `EVP_DigestUpdate`.
    let operation: String
    /// The digest, e.g. `MD5`.
    var algorithm = "MD5"

    var description: String { "\(algorithm) failed in libcrypto (\(operation))" }
}
