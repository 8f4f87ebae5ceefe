#if canImport(CTileSyncCurl)
import CTileSyncCurl
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The thread that drives a multi handle: it adds the queued requests, lets curl work, hands
/// finished transfers their outcome and sleeps in `curl_multi_poll` until there is more to do.
/// The multi handle and the transfers belong to that thread; the queue is shared under a lock.
final class CurlLoop: @unchecked Sendable {
    private struct Shared {
        var queued: [CurlTransferRequest] = []
        var stopping = false
        var started = false
    }

    private static let globalSetup: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    private let connection: CurlConnectionSetup
    private let protocols: HTTPHostProtocols
    private let shared = Mutex(Shared())
    private let multi: UnsafeMutableRawPointer?
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init(settings: HTTPConnectionSettings, protocols: HTTPHostProtocols) {
        let trust = settings.trust(environment: ProcessInfo.processInfo.environment)
        connection = CurlConnectionSetup(waitsToShare: settings.streams != nil, certificateFile: trust.file, certificateFolder: trust.folder)
        self.protocols = protocols
        multi = Self.globalSetup ? curl_multi_init() : nil
        if let multi {
            ctilesync_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.connections)
            ctilesync_curl_multi_set_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, settings.connections)
            ctilesync_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, settings.connections)
            if let streams = settings.streams { ctilesync_curl_multi_set_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, streams) }
        }
    }

    /// Queues a request, starting the thread at the first one.
    func add(_ request: CurlTransferRequest) {
        guard let multi else {
            request.completion(nil, nil, URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not be set up"]))
            return
        }
        let start = shared.withLock { shared in
            shared.queued.append(request)
            defer { shared.started = true }
            return !shared.started
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "tilesync-curl"
            thread.start()
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Ends the thread; requests still open fail as cancelled.
    func stop() {
        let started = shared.withLock { shared in
            shared.stopping = true
            return shared.started
        }
        if let multi {
            if started { curl_multi_wakeup(multi) } else { curl_multi_cleanup(multi) }
        }
    }

    private func run() {
        guard let multi else { return }
        var running: Int32 = 0
        while true {
            let (queued, stopping) = shared.withLock { shared in
                defer { shared.queued = [] }
                return (shared.queued, shared.stopping)
            }
            if stopping { break }
            for request in queued {
                guard let transfer = CurlTransfer(request.request, bodyFile: request.bodyFile, timeout: request.timeout, maxBodyBytes: request.maxBodyBytes,
                                                  connection: connection, protocols: protocols, completion: request.completion) else { continue }
                guard curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
                    transfer.fail(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl refused the request"]))
                    continue
                }
                transfers[transfer.handle] = transfer
            }
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                var handle: UnsafeMutableRawPointer?
                var result = CURLE_OK
                guard ctilesync_curl_message_done(message, &handle, &result) != 0, let handle,
                      let transfer = transfers.removeValue(forKey: handle) else { continue }
                curl_multi_remove_handle(multi, handle)
                transfer.finish(result)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        for (handle, transfer) in transfers {
            curl_multi_remove_handle(multi, handle)
            transfer.fail(URLError(.cancelled))
        }
        transfers = [:]
        for request in shared.withLock({ $0.queued }) { request.completion(nil, nil, URLError(.cancelled)) }
        curl_multi_cleanup(multi)
    }
}
#endif
