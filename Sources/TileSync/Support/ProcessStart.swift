#if os(Linux)
import Foundation
import Glibc

/// When a process started (Linux: `/proc/PID/stat` field 22, clock ticks after boot, plus the
/// boot time of `/proc/stat`), to tell a process from a later one under the same PID.
enum ProcessStart {
    private static let bootTime: Double? = {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("btime ") }.flatMap { Double($0.dropFirst(6)) }
    }()

    /// Seconds since 1970 at which process `pid` started; nil when it cannot be read.
    static func seconds(of pid: Int32) -> Double? {
        guard let bootTime, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard fields.count > 19, let ticks = Double(fields[19]), ticksPerSecond > 0 else { return nil }
        return bootTime + ticks / ticksPerSecond
    }
}
#endif
