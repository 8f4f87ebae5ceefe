import Foundation

/// How long an HTTP answer stays fresh for one private client (RFC 9111 §4.2): `Cache-Control:
/// no-store` or `no-cache` make it stale at once; `max-age` counts from its arrival, less the
/// `Age` it already had; otherwise `Expires` counts from the server's `Date` (an `Expires` that
/// is no date, such as `0`, is already past). No heuristic freshness: an answer that states
/// none is revalidated every time.
enum HTTPFreshness {
    /// The largest delta-seconds value taken (RFC 9111 §1.2.2): a larger one, however many
    /// digits it has, counts as 2^31 seconds, so no later sum can overflow.
    static let largestDeltaSeconds = 2_147_483_648

    /// A delta-seconds value (`1*DIGIT`, at most `largestDeltaSeconds`); nil when it is not one.
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        guard HTTPDigits.areDigits(text) else { return nil }
        return min(Int(text) ?? largestDeltaSeconds, largestDeltaSeconds)
    }

    /// The moment the answer stops being fresh, nil when it states nothing.
    /// - Parameters: the header values (nil when absent) and the moment the answer arrived.
    static func expiry(cacheControl: String?, expires: String?, age: String?, date: String?, receivedAt: Date) -> Date? {
        let directives = (cacheControl ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if directives.contains(where: { $0 == "no-store" || $0 == "no-cache" || $0.hasPrefix("no-cache=") }) { return receivedAt }
        let already = age.flatMap { deltaSeconds($0.trimmingCharacters(in: .whitespaces)) }.map { TimeInterval($0) } ?? 0
        for directive in directives where directive.hasPrefix("max-age=") {
            let value = directive.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard let seconds = deltaSeconds(value) else { return receivedAt }
            return receivedAt.addingTimeInterval(max(0, TimeInterval(seconds) - already))
        }
        guard let expires else { return nil }
        guard let end = HTTPDate.parse(expires) else { return receivedAt }
        let sent = date.flatMap(HTTPDate.parse) ?? receivedAt
        return receivedAt.addingTimeInterval(max(0, end.timeIntervalSince(sent) - already))
    }
}
