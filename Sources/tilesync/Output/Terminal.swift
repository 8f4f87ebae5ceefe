import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard output and standard error without buffering surprises, with secrets in
/// URLs hidden (`SecretRedaction`).
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((SecretRedaction.redacted(text) + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((SecretRedaction.redacted(text) + "\n").utf8))
    }

    /// Writes a progress line in place (no newline).
    static func errInPlace(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + SecretRedaction.redacted(text)).utf8))
    }

    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
