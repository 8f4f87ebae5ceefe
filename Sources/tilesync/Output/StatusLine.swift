import Foundation

/// A line on standard error saying what a long step of `info` or `verify` is doing and for how
/// long (and how many tiles it has seen, when it counts them), redrawn four times a second by a
/// timer while the step runs, since counting can take minutes (an MBTiles whose `tiles` view
/// expands to millions of rows) with nothing else to show. Drawn only when standard error is a
/// terminal, or when `TILESYNC_PROGRESS=1` asks for it anyway; never with `--quiet`.
final class StatusLine: @unchecked Sendable {
    private let store: String
    private let isEnabled: Bool
    private let lock = NSLock()
    private let started = Date()
    private var activity = ""
    private var tiles: Int?
    private var drewSomething = false
    private var timer: (any DispatchSourceTimer)?

    init(store: String, quiet: Bool) {
        self.store = store
        isEnabled = !quiet && (Terminal.standardErrorIsTerminal || ProcessInfo.processInfo.environment["TILESYNC_PROGRESS"] == "1")
        guard isEnabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    deinit {
        timer?.cancel()
    }

    /// What is being done now, e.g. `counting tiles`.
    func show(_ activity: String) {
        lock.withLock {
            self.activity = activity
            tiles = nil
        }
    }

    /// How many tiles the current step has seen.
    func count(_ tiles: Int) {
        lock.withLock { self.tiles = tiles }
    }

    /// Stops the timer and clears the line before the result is printed.
    func finish() {
        timer?.cancel()
        timer = nil
        lock.withLock {
            if drewSomething { Terminal.errInPlace("") }
            drewSomething = false
        }
    }

    private func draw() {
        lock.withLock {
            guard timer != nil else { return }
            let seconds = Int(Date().timeIntervalSince(started))
            let counted = tiles.map { ", \($0) tiles" } ?? ""
            Terminal.errInPlace("\(store): \(activity)\(counted) ... \(seconds) s (Ctrl-C stops)")
            drewSomething = true
        }
    }
}
