/// The system's digest library failed while hashing (libcrypto returned an error after it had
/// accepted the algorithm).
struct DigestError: Error, CustomStringConvertible {
    /// The call that failed, e.g. `EVP_DigestUpdate`.
    let operation: String

    var description: String { "MD5 failed in libcrypto (\(operation))" }
}
