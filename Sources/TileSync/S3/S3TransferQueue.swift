import Dispatch
import Synchronization

/// Keeps up to `limit` requests of one client in flight: `submit` waits for a free slot and
/// returns at once; the first failure is kept, stops new submissions and is thrown by the next
/// `submit`, `check` or `wait`.
final class S3TransferQueue: Sendable {
    private let client: S3Client
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let failure = Mutex<S3Error?>(nil)

    init(client: S3Client, limit: Int) {
        self.client = client
        slots = DispatchSemaphore(value: max(1, limit))
    }

    /// Starts a request once a slot is free; `completed` hears its answer on a session thread.
    /// - Throws: the first failure of an earlier request.
    func submit(_ request: S3Request, accepting: Set<Int> = [],
                completed: @escaping @Sendable (S3Response) throws(S3Error) -> Void = { _ throws(S3Error) in }) throws(S3Error) {
        try check()
        slots.wait()
        if let error = failure.withLock({ $0 }) {
            slots.signal()
            throw error
        }
        group.enter()
        client.start(request, accepting: accepting) { [self] result in
            let outcome: S3Error?
            switch result {
            case .success(let answer):
                do throws(S3Error) {
                    try completed(answer)
                    outcome = nil
                } catch {
                    outcome = error
                }
            case .failure(let error):
                outcome = error
            }
            if let outcome { failure.withLock { if $0 == nil { $0 = outcome } } }
            slots.signal()
            group.leave()
        }
    }

    /// Throws the first failure so far.
    func check() throws(S3Error) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Waits until every submitted request has answered.
    /// - Throws: the first failure.
    func wait() throws(S3Error) {
        group.wait()
        try check()
    }

    /// Waits for the requests in flight without throwing (after an abort).
    func drain() {
        group.wait()
    }
}
