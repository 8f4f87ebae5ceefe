#if canImport(CTileSyncCurl)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request waiting for `CurlLoop`'s thread.
struct CurlTransferRequest: Sendable {
    let request: URLRequest
    let bodyFile: URL?
    let timeout: TimeInterval
    /// The longest answer body taken.
    let maxBodyBytes: Int
    let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void
}
#endif
