import Foundation
import Synchronization

/// Lists every object under a prefix with several ListObjectsV2 requests in flight: the first
/// level below the prefix (`prefix/0/`, `prefix/1/`, ... for a `{z}/...` layout) is found with a
/// delimiter listing, each of those parts lists its own level the same way (`prefix/14/0/`,
/// `prefix/14/1/`, ...) and is cut into up to 8 contiguous key ranges (`start-after` up to the
/// next range's first key), and the ranges are paged through by `workers` threads. A big zoom
/// is thus listed by several threads at once, at the cost of one delimiter listing per part.
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
        state.withLock { state in
            state.pending = parts.reversed().map { S3ListingRange(prefix: $0, splits: true) }
            state.running = workers
        }
        guard !parts.isEmpty else {
            queue.close()
            return
        }
        for _ in 0..<workers {
            Thread.detachNewThread { [client, queue, state] in Self.work(client: client, queue: queue, state: state) }
        }
    }

    /// Part of a listing: the keys under `prefix` after `startAfter` and before `endBefore`.
    /// A part that `splits` first lists its own level with a delimiter and hands its
    /// sub-prefixes (`z/x/` under `z/`) to the other threads in up to 8 contiguous ranges.
    private struct S3ListingRange {
        var prefix: String
        var startAfter: String? = nil
        var endBefore: String? = nil
        var splits = false
        /// Only keys below a sub-prefix (objects directly under `prefix` were listed by the split).
        var skipsDirectObjects = false
    }

    /// What the listing threads share (not the lister, so that dropping it stops them). Every
    /// change wakes the threads waiting for a range (`waitUntil`).
    private final class ListingState: @unchecked Sendable {
        typealias Value = (pending: [S3ListingRange], running: Int, busy: Int, failure: S3Error?)
        private let condition = NSCondition()
        private var value: Value = ([], 0, 0, nil)

        func withLock<T>(_ body: (inout Value) -> T) -> T {
            condition.lock()
            defer {
                condition.broadcast()
                condition.unlock()
            }
            return body(&value)
        }

        /// Waits until `ready` (called under the lock, after every change) returns true; a
        /// tenth of a second at most between looks, for a stop of the queue, which is not a change here.
        func waitUntil(_ ready: (inout Value) -> Bool) {
            condition.lock()
            defer { condition.unlock() }
            while !ready(&value) { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1)) }
        }
    }

    private static let rangesPerSplit = 8

    private static func work(client: S3Client, queue: BoundedBatchQueue<S3ObjectSummary>, state: ListingState) {
        while true {
            // Take a range; wait while others are splitting (they may hand out more).
            var taken: S3ListingRange?
            state.waitUntil { state in
                if state.failure != nil || queue.isStopped { return true }
                if let range = state.pending.popLast() {
                    taken = range
                    state.busy += 1
                    return true
                }
                return state.busy == 0
            }
            guard let range = taken else { break }
            do throws(S3Error) {
                if range.splits {
                    try split(range, client: client, queue: queue, state: state)
                } else {
                    try list(range, client: client, queue: queue)
                }
            } catch {
                state.withLock { if $0.failure == nil { $0.failure = error } }
            }
            state.withLock { $0.busy -= 1 }
        }
        let last = state.withLock { state -> Bool in
            state.running -= 1
            return state.running == 0
        }
        if last { queue.close() }
    }

    private static func split(_ range: S3ListingRange, client: S3Client, queue: BoundedBatchQueue<S3ObjectSummary>,
                              state: ListingState) throws(S3Error) {
        var subPrefixes: [String] = []
        var direct: [S3ObjectSummary] = []
        var continuation: String?
        repeat {
            let page = try client.listPage(prefix: range.prefix, delimiter: "/", continuation: continuation)
            direct.append(contentsOf: page.objects)
            subPrefixes.append(contentsOf: page.commonPrefixes)
            continuation = page.continuationToken
            if direct.count >= 1000, !queue.put(&direct, bytes: direct.count) { return }
        } while continuation != nil
        if !direct.isEmpty, !queue.put(&direct, bytes: direct.count) { return }
        guard !subPrefixes.isEmpty else { return }
        let count = min(rangesPerSplit, subPrefixes.count)
        var ranges: [S3ListingRange] = []
        for group in 0..<count {
            let first = subPrefixes.count * group / count
            let next = subPrefixes.count * (group + 1) / count
            ranges.append(S3ListingRange(prefix: range.prefix, startAfter: group == 0 ? nil : subPrefixes[first],
                                         endBefore: next < subPrefixes.count ? subPrefixes[next] : nil, skipsDirectObjects: true))
        }
        state.withLock { $0.pending.append(contentsOf: ranges.reversed()) }
    }

    private static func list(_ range: S3ListingRange, client: S3Client, queue: BoundedBatchQueue<S3ObjectSummary>) throws(S3Error) {
        var continuation: String?
        let prefixLength = range.prefix.utf8.count
        repeat {
            if queue.isStopped { return }
            let page = try client.listPage(prefix: range.prefix, continuation: continuation,
                                           startAfter: continuation == nil ? range.startAfter : nil)
            var objects: [S3ObjectSummary] = []
            var reachedEnd = false
            for object in page.objects {
                if let end = range.endBefore, !object.key.utf8.lexicographicallyPrecedes(end.utf8) {
                    reachedEnd = true
                    break
                }
                if range.skipsDirectObjects && !object.key.utf8.dropFirst(prefixLength).contains(UInt8(ascii: "/")) { continue }
                objects.append(object)
            }
            if !objects.isEmpty, !queue.put(&objects, bytes: objects.count) { return }
            continuation = reachedEnd ? nil : page.continuationToken
        } while continuation != nil
    }
}
