import Foundation
import Synchronization
import TileSync

/// A progress line on standard error when it is a terminal: tiles done, rate, and ETA when the
/// total is known (counted in places settled where the source may have no tile at some).
/// Redrawn at most five times a second; silent when not a terminal (unless `TILESYNC_PROGRESS=1`)
/// or `--quiet`. Thread-safe.
final class ProgressLine: Sendable {
    /// False when nothing is drawn (`--quiet`, or standard error is not a terminal).
    let isEnabled: Bool
    private let started = Date()
    private let drawn = Mutex<(last: Date, any: Bool)>((Date.distantPast, false))

    init(quiet: Bool) {
        isEnabled = !quiet && (Terminal.standardErrorIsTerminal || ProcessInfo.processInfo.environment["TILESYNC_PROGRESS"] == "1")
    }

    func update(_ progress: TileConverter.Progress) {
        guard isEnabled else { return }
        let now = Date()
        let due = drawn.withLock { drawn in
            guard now.timeIntervalSince(drawn.last) >= 0.2, now.timeIntervalSince(started) >= 0.2 else { return false }
            drawn = (now, true)
            return true
        }
        guard due else { return }
        Terminal.errInPlace(Self.text(progress, elapsed: max(0.001, now.timeIntervalSince(started))))
    }

    static func text(_ progress: TileConverter.Progress, elapsed: TimeInterval) -> String {
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
        return text
    }

    /// Clears the line before the summary is printed.
    func finish() {
        let drew = drawn.withLock { drawn in
            defer { drawn.any = false }
            return drawn.any
        }
        if drew { Terminal.errInPlace("") }
    }
}
