import Foundation
import Testing
@testable import TileSync

@Suite("HTTP headers: dates, freshness of answers, Retry-After")
struct HTTPHeaderTests {
    let received = Date(timeIntervalSince1970: 1_000_000_000)

    @Test("HTTP dates: IMF-fixdate, RFC 850 and asctime; anything else is no date")
    func dates() {
        #expect(HTTPDate.parse("Sun, 09 Sep 2001 01:46:40 GMT") == received)
        #expect(HTTPDate.parse("Sunday, 09-Sep-01 01:46:40 GMT") == received)
        #expect(HTTPDate.parse("Sun Sep  9 01:46:40 2001") == received)
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT")?.timeIntervalSince1970 == 1_709_251_199)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")?.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994")?.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov 06 08:49:37 1994")?.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.parse("\tSun, 06 Nov 1994 08:49:37 GMT  ")?.timeIntervalSince1970 == 784_111_777)
        for text in ["0", "-1", "soon", "Sun, 09 Sep 2001 01:46:40 CET", "Sun, 32 Sep 2001 01:46:40 GMT", "Sun, 09 Sep 2001 24:00:00 GMT", "",
                     "Sun, 18 Sep 1\u{0338}0,0 \u{1}1:46:45 GMT", "Sun, 18 Sep 1\u{0338}", "Sunday, 06-Nov-94 08:49:37 CET", "Someday, 06-Nov-94 08:49:37 GMT",
                     "Sun Nov  6 08:49:37 94", "Sun Nov  6 8:49:37 1994", "Sun Nox  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT\u{301}"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }

    @Test("freshness: no-store and no-cache are stale at once, max-age less Age, Expires against Date, a bad Expires is past, nothing is nil")
    func freshness() {
        func expiry(_ cacheControl: String?, expires: String? = nil, age: String? = nil, date: String? = nil) -> TimeInterval? {
            HTTPFreshness.expiry(cacheControl: cacheControl, expires: expires, age: age, date: date, receivedAt: received)
                .map { $0.timeIntervalSince(received) }
        }
        #expect(expiry("public, max-age=3600") == 3600)
        #expect(expiry("max-age=\"600\"", age: "100") == 500)
        #expect(expiry("max-age=60", age: "100") == 0)
        #expect(expiry("max-age=3600, no-cache") == 0)
        #expect(expiry("no-store") == 0)
        #expect(expiry("max-age=soon") == 0)
        #expect(expiry("MAX-AGE=10", expires: "Sun, 09 Sep 2001 02:46:40 GMT") == 10)
        #expect(expiry(nil, expires: "Sun, 09 Sep 2001 02:46:40 GMT", date: "Sun, 09 Sep 2001 01:46:40 GMT") == 3600)
        #expect(expiry(nil, expires: "Sun, 09 Sep 2001 02:46:40 GMT", date: "Sun, 09 Sep 2001 02:16:40 GMT") == 1800)
        #expect(expiry(nil, expires: "0") == 0)
        #expect(expiry("max-age=9223372036854775807") == 2_147_483_648, "RFC 9111 1.2.2: too large a delta-seconds is 2^31")
        #expect(expiry("max-age=99999999999999999999999999") == 2_147_483_648)
        #expect(expiry("max-age=600", age: "99999999999999999999999999") == 0)
        #expect(expiry("max-age=+600") == 0)
        #expect(expiry("max-age=-600") == 0)
        #expect(expiry("public") == nil)
        #expect(expiry(nil) == nil)
    }

    @Test("Retry-After in seconds or as a date; anything else is no wait")
    func retryAfter() {
        #expect(HTTPRetryPolicy.retryAfter("120", now: received) == 120)
        #expect(HTTPRetryPolicy.retryAfter("Sun, 09 Sep 2001 01:47:40 GMT", now: received) == 60)
        #expect(HTTPRetryPolicy.retryAfter(nil, now: received) == nil)
        #expect(HTTPRetryPolicy.retryAfter("soon", now: received) == nil)
        #expect(HTTPRetryPolicy.retryAfter("9223372036854775807", now: received) == 2_147_483_648)
        #expect(HTTPRetryPolicy.retryAfter("+5", now: received) == nil)
        #expect(HTTPRetryPolicy.retryAfter("Fri, 31 Dec 9999 23:59:59 GMT", now: received).map { $0.rounded() } == 252_402_300_799)
    }
}
