import Foundation

/// A failed POSIX file call: which call, on which path, and `strerror` of its errno.
struct POSIXFileError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    var description: String {
        "\(operation) failed: \(String(cString: strerror(code)))"
    }
}
