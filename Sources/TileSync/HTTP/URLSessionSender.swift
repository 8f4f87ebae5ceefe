import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Exchanges through `URLSession` (Apple platforms; on Linux with `TILESYNC_HTTP=urlsession`).
/// Requests are spread over several sessions: on Linux each `URLSession` drives its transfers
/// from one thread, which would otherwise cap a client at one core. No cookies, no cache.
final class URLSessionSender: HTTPSender {
    private let sessionCount: Int
    private let connectionsPerSession: Int
    private let timeout: TimeInterval
    /// Made at the first request, so a sender that is never used opens no session.
    private let sessions = Mutex<[URLSession]>([])
    private let nextSession = Atomic<UInt>(0)

    /// - Parameters:
    ///   - connections: requests in flight at once, over all sessions.
    ///   - timeout: seconds a request may wait for the server.
    init(connections: Int, timeout: TimeInterval) {
        sessionCount = max(1, min(8, connections / 4))
        connectionsPerSession = max(1, (connections + sessionCount - 1) / sessionCount)
        self.timeout = timeout
    }

    deinit {
        sessions.withLock { sessions in
            for session in sessions { session.finishTasksAndInvalidate() }
        }
    }

    /// URLSession gathers the whole body before it is seen: a body past `maxBodyBytes` fails
    /// as with libcurl, but only once it has arrived.
    func send(_ request: URLRequest, bodyFile: URL?, maxBodyBytes: Int, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        let session = nextURLSession()
        let limited: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            if error == nil, let data, data.count > maxBodyBytes {
                completion(nil, nil, URLError.bodyTooLong(limit: maxBodyBytes))
            } else {
                completion(data, response, error)
            }
        }
        if let bodyFile {
            session.uploadTask(with: request, fromFile: bodyFile, completionHandler: limited).resume()
        } else {
            session.dataTask(with: request, completionHandler: limited).resume()
        }
    }

    /// The next session in turn, the sessions made on the first call.
    private func nextURLSession() -> URLSession {
        let index = Int(nextSession.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(sessionCount))
        return sessions.withLock { sessions in
            if sessions.isEmpty {
                let configuration = URLSessionConfiguration.ephemeral
                configuration.httpMaximumConnectionsPerHost = connectionsPerSession
                configuration.timeoutIntervalForRequest = timeout
                configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
                configuration.urlCache = nil
                configuration.httpCookieStorage = nil
                configuration.httpShouldSetCookies = false
                configuration.httpCookieAcceptPolicy = .never
                sessions = (0..<sessionCount).map { _ in URLSession(configuration: configuration) }
            }
            return sessions[index]
        }
    }
}
