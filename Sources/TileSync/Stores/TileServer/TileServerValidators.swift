import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a tile server said of one answer that lets a later run ask again cheaply: the `ETag`
/// and `Last-Modified` it sent (sent back as `If-None-Match` and `If-Modified-Since`) and the
/// moment the answer stops being fresh (`HTTPFreshness`), nil when it said nothing of that.
struct TileServerValidators: Sendable, Equatable {
    var etag: String?
    var lastModified: String?
    /// Seconds since 1970.
    var expiry: Int64?

    init(etag: String? = nil, lastModified: String? = nil, expiry: Int64? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.expiry = expiry
    }

    /// The validators of an answer that arrived at `receivedAt`.
    init(_ http: HTTPURLResponse, receivedAt: Date) {
        let header = { (name: String) in http.value(forHTTPHeaderField: name).flatMap { $0.isEmpty ? nil : $0 } }
        etag = header("ETag")
        lastModified = header("Last-Modified")
        expiry = HTTPFreshness.expiry(cacheControl: header("Cache-Control"), expires: header("Expires"), age: header("Age"),
                                      date: header("Date"), receivedAt: receivedAt)
            .map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    /// True when a conditional request can be made.
    var canRevalidate: Bool { etag != nil || lastModified != nil }

    /// These validators after a 304 that sent `newer`: its validators where it sent them (it
    /// may leave them out), and its freshness, which replaces the old one.
    func refreshed(by newer: TileServerValidators) -> TileServerValidators {
        TileServerValidators(etag: newer.etag ?? etag, lastModified: newer.lastModified ?? lastModified, expiry: newer.expiry)
    }
}
