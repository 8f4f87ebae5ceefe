import Dispatch
import Foundation
import TileSync

/// Set when the user presses Ctrl-C (SIGINT) or sends SIGTERM; long commands poll it between
/// tiles, clean up and exit 130. A phase that does not poll (a sort, a long query) is ended by
/// force `grace` seconds after the first signal, and a second signal ends the run at once; either
/// way the temporaries of the stores the command writes are removed first, so the destination is
/// left as it was and nothing is left beside it.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private var ended = false
    private var sources: [any DispatchSourceSignal] = []
    private var written: [TileStoreLocation] = []

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Starts catching SIGINT and SIGTERM.
    /// - Parameters:
    ///   - grace: seconds after the first signal at which the process exits (130) even if the
    ///     work did not stop by itself.
    ///   - writes: the stores the command writes, whose temporaries a forced exit removes.
    func installSignalHandlers(grace: Double, writes: [TileStoreLocation]) {
        written = writes
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.signalled(grace: grace) }
            source.resume()
            sources.append(source)
        }
    }

    /// The run returned by itself: a forced exit must not follow.
    func runEnded() {
        lock.lock()
        ended = true
        lock.unlock()
    }

    private func signalled(grace: Double) {
        lock.lock()
        let wasSet = value
        value = true
        lock.unlock()
        if wasSet { return endAtOnce() }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [weak self] in self?.endAtOnce() }
    }

    /// Removes the run's temporaries and exits 130 without waiting for the work.
    private func endAtOnce() {
        lock.lock()
        guard !ended else {
            lock.unlock()
            return
        }
        ended = true
        lock.unlock()
        for location in written { location.resource.removeOwnTemporaries() }
        Terminal.errInPlace("")
        Terminal.err(written.first.map { "Error: \($0.address): interrupted; the destination was not changed" } ?? "Error: interrupted")
        _exit(130)
    }
}
