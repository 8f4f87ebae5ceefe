import Dispatch
import Foundation

/// Set when the user presses Ctrl-C (SIGINT) or sends SIGTERM; long commands poll it between
/// tiles, clean up and exit 130. A second signal exits at once.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    private var sources: [any DispatchSourceSignal] = []

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Starts catching SIGINT and SIGTERM.
    /// - Parameter grace: for commands that change nothing, seconds after the first signal at
    ///   which the process exits (130) even if the work did not stop by itself (a walk that does
    ///   not poll the flag); nil waits for the work.
    func installSignalHandlers(grace: Double? = nil) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.lock.lock()
                let wasSet = self.value
                self.value = true
                self.lock.unlock()
                if wasSet { exit(130) }
                if let grace {
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                        Terminal.errInPlace("")
                        Terminal.err("Error: interrupted")
                        exit(130)
                    }
                }
            }
            source.resume()
            sources.append(source)
        }
    }
}
