import Foundation
import TileSync

/// A progress line on standard error when it is a terminal: tiles done, rate, and ETA when the
/// total is known (counted in places settled where the source may have no tile at some). Redrawn at most five times a second; silent when not a terminal or `--quiet`.
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
        let settled = progress.placesDone ?? progress.tilesDone
        var text = "\(progress.tilesDone)"
        if let total = progress.tilesTotal, total > 0 {
            text += progress.placesDone == nil ? "/\(total) tiles" : " tiles, \(settled)/\(total) asked"
            text += " (\(Int(100 * Double(min(settled, total)) / Double(total)))%)"
        } else {
            text += " tiles"
        }
        text += ", \(Int(rate)) tiles/s, \(Formatting.bytes(progress.bytesDone))"
        let settling = Double(settled) / elapsed
        if let total = progress.tilesTotal, settling > 0, total >= settled {
            text += ", ETA \(Formatting.duration(Double(total - settled) / settling))"
        }
        Terminal.errInPlace(text)
        drewSomething = true
    }

    /// Clears the line before the summary is printed.
    func finish() {
        if drewSomething { Terminal.errInPlace("") }
    }
}
