public import Foundation

/// The parts of a server's answers that TileSync reads with its own code, open to the fuzzer
/// (`Scripts/fuzz answers`, through `@_spi(Fuzzing) import TileSync`): S3's XML documents (a
/// listing page, an error) and the header values of range requests, cache freshness and
/// Retry-After. Not API: it exists so that hostile answers reach that code without a server.
@_spi(Fuzzing) public enum ServerAnswerReading {
    /// Reads `body` as an S3 answer (document, listing page, error code) and `header` as each
    /// header value TileSync reads, the waits and expiries made whole seconds as their users
    /// make them (which traps if a value escapes its bounds).
    /// - Returns: the number of elements of the document and its depth (1 for a lone root), nil
    ///   when it is not well-formed XML.
    public static func read(body: Data, header: String) -> (elements: Int, depth: Int)? {
        let now = Date(timeIntervalSince1970: 1_000_000_000)
        for status in [200, 206, 416] {
            let answer = ByteRangeAnswer(status: status, body: body, contentRange: header, contentLength: nil, etag: header)
            _ = (answer.firstByte, answer.totalSize, answer.isWholeObject)
        }
        _ = HTTPDate.parse(header)
        _ = HTTPRetryPolicy.retryAfter(header, now: now).map { Int($0) }
        _ = HTTPFreshness.expiry(cacheControl: header, expires: header, age: header, date: header, receivedAt: now)
            .map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        let maxAge = "max-age=" + header.drop { !("0"..."9").contains($0) }
        _ = HTTPFreshness.expiry(cacheControl: maxAge, expires: nil, age: header, date: nil, receivedAt: now)
            .map { Int64($0.timeIntervalSince1970.rounded(.down)) }
        _ = try? S3ListPage(parsing: body, prefix: "fuzz/")
        guard let document = S3XMLElement.parse(body) else { return nil }
        _ = document.name == "Error" ? document.value("Code") : nil
        var count = 0
        var depth = 0
        var pending = [(document, 1)]
        while let (element, level) = pending.popLast() {
            count += 1
            depth = max(depth, level)
            pending += element.children.map { ($0, level + 1) }
        }
        return (count, depth)
    }
}
