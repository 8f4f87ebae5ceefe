import Dispatch
import Synchronization

/// Hands one asynchronous result to a thread that waits for it.
final class S3ResultWaiter: Sendable {
    private let result = Mutex<Result<S3Response, S3Error>?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func finish(_ value: Result<S3Response, S3Error>) {
        result.withLock { $0 = value }
        ready.signal()
    }

    func wait() -> Result<S3Response, S3Error> {
        ready.wait()
        return result.withLock { $0 } ?? .failure(S3Error(message: "no result"))
    }
}
