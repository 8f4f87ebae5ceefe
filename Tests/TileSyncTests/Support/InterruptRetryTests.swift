import Foundation
import Testing
@testable import TileSync
#if canImport(Glibc)
import Glibc
#endif

@Suite("Blocking calls interrupted by a signal")
struct InterruptRetryTests {
    @Test("One EINTR loop for every blocking call: a call interrupted by a signal is made again")
    func interruptedCalls() throws {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #if os(Linux)
        let directory = try TemporaryDirectory()
        let fifo = directory.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        #expect(sigaction(SIGUSR1, &action, nil) == 0)
        let outcome = LockedValue<(thread: pthread_t, error: POSIXFileError?)>((0, nil))
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        Thread {
            // Test threads come from a pool that blocks signals; this one must receive it.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            outcome.withLock { $0.thread = pthread_self() }
            started.signal()
            do {
                _ = try FileBytes.read(fifo)
            } catch let error as POSIXFileError {
                outcome.withLock { $0.error = error }
            } catch {
                Issue.record(error)
            }
            finished.signal()
        }.start()
        started.wait()
        usleep(100_000)
        pthread_kill(outcome.withLock { $0.thread }, SIGUSR1)
        usleep(100_000)
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let error = outcome.withLock { $0.error }
        #expect(error?.operation == "read" && error?.code == EINVAL, "\(String(describing: error))")
        #endif
    }
}
