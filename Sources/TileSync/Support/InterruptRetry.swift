#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls a POSIX function until it does not fail with `EINTR` (a signal arrived while it
/// waited), the one loop every blocking call TileSync makes goes through (`open`, `read`,
/// `write`, `fsync`, `linkat`, ...), as swift-system's `retryOnInterrupt`.
/// - Returns: the call's result; on failure (a negative result) `errno` is the call's.
@inline(__always)
func retryingOnInterrupt<Result: SignedInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result < 0 && errno == EINTR { continue }
        return result
    }
}
