import Foundation
import TileSync

/// A progress line on standard error when it is a terminal: tiles done, rate, and ETA when the
/// total is known. Redrawn at most five times a second; silent when not a terminal or `--quiet`.
final class ProgressLine {
    /// False when nothing is drawn (`--quiet`, or standard error is not a terminal).
    let isEnabled: Bool
    private let started = Date()
    private lazy var lastDraw = started
    private var drewSomething = false

    init(quiet: Bool) {
        isEnabled = !quiet && Terminal.standardErrorIsTerminal
    }

    func update(_ progress: ConversionProgress) {
        guard isEnabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        let elapsed = max(0.001, now.timeIntervalSince(started))
        let rate = Double(progress.tilesDone) / elapsed
        var text = "\(progress.tilesDone)"
        if let total = progress.tilesTotal, total > 0 {
            text += "/\(total) tiles (\(Int(100 * Double(progress.tilesDone) / Double(total)))%)"
        } else {
            text += " tiles"
        }
        text += ", \(Int(rate)) tiles/s, \(Formatting.bytes(progress.bytesDone))"
        if let total = progress.tilesTotal, rate > 0, total >= progress.tilesDone {
            text += ", ETA \(Formatting.duration(Double(total - progress.tilesDone) / rate))"
        }
        Terminal.errInPlace(text)
        drewSomething = true
    }

    /// Clears the line before the summary is printed.
    func finish() {
        if drewSomething { Terminal.errInPlace("") }
    }
}
