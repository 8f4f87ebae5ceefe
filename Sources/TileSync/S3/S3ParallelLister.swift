import Foundation
import Synchronization

/// Lists every object under a prefix one folder at a time, as a file tree is walked: a
/// ListObjectsV2 with delimiter `/` of a folder gives the objects directly in it and its
/// sub-folders (`prefix/14/`, then `prefix/14/8800/`, ...), which `workers` threads list in
/// turn, many folders at once.
///
/// Every request covers one folder level, so the work is in proportion to the objects listed on
/// every server: S3 and MinIO answer a page from an index, while file-backed servers (`rclone
/// serve s3`, most test servers) walk the whole tree below a request's prefix for every page,
/// which made each page of a zoom cost as much as the whole zoom.
/// Requests: one per folder plus one per further 1,000 entries; a `{z}/{x}/{y}` tree has about
/// the square root of a zoom's tiles as columns, a small share of its pages.
///
/// The unit of work is one page: a folder's next page waits on a stack under the sub-folders
/// its page named, so the walk goes depth first and the stack holds at most about a page of
/// folders per level, however many columns a zoom has. Objects come in no particular order; at
/// most a few pages are held, whatever the count.
final class S3ParallelLister: @unchecked Sendable {
    /// The longest key S3 stores, in UTF-8 bytes: a folder longer than that cannot hold objects,
    /// so a server that names one is answered with an error instead of being listed forever.
    static let longestKey = 1024

    private let client: S3Client
    private let prefix: String
    private let workers: Int
    private let pageSize: Int
    private let queue = BoundedBatchQueue<S3ObjectSummary>(maxBytes: 8 * 1000)
    private let state = ListingState()
    private var batch: [S3ObjectSummary] = []
    private var position = 0
    private var started = false

    /// - Parameters:
    ///   - prefix: the key prefix, ending in `/` (or empty for the whole bucket).
    ///   - workers: folders listed at once.
    ///   - pageSize: entries asked for per request (`max-keys`; S3 gives at most 1,000).
    init(client: S3Client, prefix: String, workers: Int, pageSize: Int = 1000) {
        self.client = client
        self.prefix = prefix
        self.workers = max(1, workers)
        self.pageSize = max(1, pageSize)
    }

    deinit {
        queue.stop()
    }

    /// The next object, nil at the end.
    /// - Throws: `S3Error` of the first request that failed, after the objects listed before it.
    func next() throws(S3Error) -> S3ObjectSummary? {
        if !started {
            started = true
            startListing()
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

    /// The most pages waiting at once so far (for tests of the walk's bound).
    var mostPagesWaiting: Int { state.withLock { $0.mostPending } }

    private func startListing() {
        state.withLock { state in
            state.pending = [PageToList(folder: prefix, continuation: nil)]
            state.running = workers
        }
        for _ in 0..<workers {
            Thread.detachNewThread { [client, queue, state, pageSize] in
                Self.work(client: client, queue: queue, state: state, pageSize: pageSize)
            }
        }
    }

    /// A folder's first page (continuation nil) or the page a continuation token names.
    private struct PageToList {
        var folder: String
        var continuation: String?
    }

    /// What the listing threads share (not the lister, so that dropping it stops them). Every
    /// change wakes the threads waiting for a page (`waitUntil`).
    private final class ListingState: @unchecked Sendable {
        /// Pages still to list (a stack: the last pushed is listed first), the most it held,
        /// threads still running, threads listing a page, the first failure.
        struct Value {
            var pending: [PageToList] = []
            var mostPending = 0
            var running = 0
            var busy = 0
            var failure: S3Error?
        }
        private let condition = NSCondition()
        private var value = Value()

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

    private static func work(client: S3Client, queue: BoundedBatchQueue<S3ObjectSummary>, state: ListingState, pageSize: Int) {
        while true {
            // Take a page; wait while others are listing (they may find more).
            var taken: PageToList?
            state.waitUntil { state in
                if state.failure != nil || queue.isStopped { return true }
                if let page = state.pending.popLast() {
                    taken = page
                    state.busy += 1
                    return true
                }
                return state.busy == 0
            }
            guard let page = taken else { break }
            do throws(S3Error) {
                try list(page, client: client, queue: queue, state: state, pageSize: pageSize)
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

    /// Lists one page of a folder: its objects go to the queue; its next page, then its
    /// sub-folders (the first on top) go on the stack.
    private static func list(_ request: PageToList, client: S3Client, queue: BoundedBatchQueue<S3ObjectSummary>,
                             state: ListingState, pageSize: Int) throws(S3Error) {
        let folder = request.folder
        let page = try client.listPage(prefix: folder, delimiter: "/", continuation: request.continuation, maxKeys: pageSize)
        var objects = page.objects
        if let stray = objects.first(where: { !$0.key.utf8.starts(with: folder.utf8) }) {
            throw S3Error(message: "the server's listing of \(listed(folder)) gives the key \(stray.key), which is not in it",
                          key: "listing of \(folder)")
        }
        let folders = try subfolders(page.commonPrefixes, of: folder)
        try checkProgress(of: folder, sent: request.continuation, next: page.continuationToken,
                          entries: objects.count + folders.count)
        if page.continuationToken != nil || !folders.isEmpty {
            state.withLock { state in
                if let token = page.continuationToken { state.pending.append(PageToList(folder: folder, continuation: token)) }
                state.pending.append(contentsOf: folders.reversed().map { PageToList(folder: $0, continuation: nil) })
                state.mostPending = max(state.mostPending, state.pending.count)
            }
        }
        if !objects.isEmpty { _ = queue.put(&objects, bytes: objects.count) }
    }

    /// Checks that a page which names a next one moved on: it gave at least one entry and a
    /// token other than the one it was asked with; else the walk would ask for it forever.
    static func checkProgress(of folder: String, sent: String?, next: String?, entries: Int) throws(S3Error) {
        guard let next, next == sent || entries == 0 else { return }
        throw S3Error(message: "the server's listing of \(listed(folder)) goes on without giving anything new",
                      key: "listing of \(folder)")
    }

    /// A folder as errors name it: the bucket for the empty one.
    private static func listed(_ folder: String) -> String {
        folder.isEmpty ? "the bucket" : folder
    }

    /// The common prefixes of a page, each checked to be a folder strictly inside `folder` and no
    /// longer than a key can be: a server that answers otherwise would have the walk go on forever.
    static func subfolders(_ commonPrefixes: [String], of folder: String) throws(S3Error) -> [String] {
        let folderLength = folder.utf8.count
        for name in commonPrefixes {
            let length = name.utf8.count
            guard name.utf8.starts(with: folder.utf8), length > folderLength else {
                throw S3Error(message: "the server's listing of \(listed(folder)) gives the folder '\(name)', which is not inside it",
                              key: "listing of \(folder)")
            }
            guard length <= longestKey else {
                throw S3Error(message: "the server's listing of \(listed(folder)) gives a folder of \(length) bytes, longer than any key"
                              + " (\(longestKey))", key: "listing of \(folder)")
            }
        }
        return commonPrefixes
    }
}
