import Foundation

/// How often and how patiently a request is tried: attempts, the backoff between them (doubled
/// each time, with full jitter) and how long one attempt may wait for the server.
struct HTTPRetryPolicy: Sendable {
    /// Attempts per request before its error is reported (1 = no retry).
    var attempts: Int
    /// Seconds before the second attempt at most; each retry doubles it, up to `maximumBackoff`.
    var initialBackoff: TimeInterval
    /// The longest backoff in seconds.
    var maximumBackoff: TimeInterval
    /// Seconds an attempt may wait for the server.
    var timeout: TimeInterval
    /// The longest `Retry-After` in seconds waited for; a server asking more fails the request.
    var longestRetryAfter: TimeInterval = 120

    /// Seconds a `Retry-After` header asks for (a number of seconds, at most 2^31, or an HTTP
    /// date), nil when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = HTTPFreshness.deltaSeconds(value) { return TimeInterval(seconds) }
        return HTTPDate.parse(value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// A random delay before attempt `number + 1` (full jitter below the doubled ceiling).
    func delay(after number: Int) -> TimeInterval {
        let ceiling = min(maximumBackoff, initialBackoff * Double(1 << min(number - 1, 20)))
        return Double.random(in: 0...max(0, ceiling))
    }
}
