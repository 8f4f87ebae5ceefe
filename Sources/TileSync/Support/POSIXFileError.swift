import Foundation

/// A failed POSIX file call: which call, on which path, and `strerror` of its errno.
struct POSIXFileError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32
    /// Said instead of `strerror` when the call itself succeeded but its result is refused.
    var reason: String?

    init(operation: String, path: String, code: Int32, reason: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    var description: String {
        reason ?? "\(operation) failed: \(String(cString: strerror(code)))"
    }
}
