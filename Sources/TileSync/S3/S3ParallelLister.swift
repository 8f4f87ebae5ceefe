import Foundation
import Synchronization

/// Lists every object under a prefix with several ListObjectsV2 requests in flight: the first
/// level below the prefix (`prefix/0/`, `prefix/1/`, ... for a `{z}/...` layout) is found with a
/// delimiter listing, then each part is paged through on its own thread, `workers` at a time.
/// Objects come in no particular order; at most a few pages are held, whatever the count.
final class S3ParallelLister: @unchecked Sendable {
    private let client: S3Client
    private let prefix: String
    private let workers: Int
    private let queue = BoundedBatchQueue<S3ObjectSummary>(maxBytes: 8 * 1000)
    private let state = ListingState()
    private var batch: [S3ObjectSummary] = []
    private var position = 0
    private var started = false

    /// - Parameter prefix: the key prefix, ending in `/` (or empty for the whole bucket).
    init(client: S3Client, prefix: String, workers: Int) {
        self.client = client
        self.prefix = prefix
        self.workers = max(1, workers)
    }

    deinit {
        queue.stop()
    }

    /// The next object, nil at the end.
    /// - Throws: `S3Error` of the first request that failed, after the objects listed before it.
    func next() throws(S3Error) -> S3ObjectSummary? {
        if !started {
            started = true
            try startListing()
        }
        while position == batch.count {
            position = 0
            guard queue.take(into: &batch) else {
                if let failure = state.withLock({ $0.failure }) { throw failure }
                return nil
            }
        }
        position += 1
        return batch[position - 1]
    }

    /// Stops the listing threads.
    func stop() {
        queue.stop()
    }

    private func startListing() throws(S3Error) {
        var parts: [String] = []
        var continuation: String?
        var top: [S3ObjectSummary] = []
        repeat {
            let page = try client.listPage(prefix: prefix, delimiter: "/", continuation: continuation)
            top.append(contentsOf: page.objects)
            parts.append(contentsOf: page.commonPrefixes)
            continuation = page.continuationToken
            if top.count >= 1000 { queue.put(&top, bytes: top.count) }
        } while continuation != nil
        if !top.isEmpty { queue.put(&top, bytes: top.count) }
        let count = min(workers, parts.count)
        state.withLock { $0.pending = parts.reversed(); $0.running = count }
        if count == 0 {
            queue.close()
            return
        }
        for _ in 0..<count {
            Thread.detachNewThread { [client, queue, state] in Self.work(client: client, queue: queue, state: state) }
        }
    }

    /// What the listing threads share (not the lister, so that dropping it stops them).
    private final class ListingState: Sendable {
        let value = Mutex<(pending: [String], running: Int, failure: S3Error?)>(([], 0, nil))
        func withLock<T>(_ body: (inout (pending: [String], running: Int, failure: S3Error?)) -> T) -> T {
            value.withLock { body(&$0) }
        }
    }

    private static func work(client: S3Client, queue: BoundedBatchQueue<S3ObjectSummary>, state: ListingState) {
        while let part = state.withLock({ $0.failure == nil ? $0.pending.popLast() : nil }) {
            var continuation: String?
            do throws(S3Error) {
                repeat {
                    if queue.isStopped { break }
                    let page = try client.listPage(prefix: part, continuation: continuation)
                    var objects = page.objects
                    if !objects.isEmpty, !queue.put(&objects, bytes: objects.count) { break }
                    continuation = page.continuationToken
                } while continuation != nil
            } catch {
                state.withLock { if $0.failure == nil { $0.failure = error } }
            }
        }
        let last = state.withLock { state -> Bool in
            state.running -= 1
            return state.running == 0
        }
        if last { queue.close() }
    }
}
