import Foundation

/// Requests answered and bytes sent, by status, for the summary at the end of a run.
final class ServeTally: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int: Int] = [:]
    private var bytes = 0
    private let started = DispatchTime.now()

    func record(status: Int, bodyBytes: Int) {
        lock.lock()
        statuses[status, default: 0] += 1
        bytes += bodyBytes
        lock.unlock()
    }

    /// `Served 1234 requests (200: 1200, 404: 34), 12.3 MB of bodies in 61.0 s`.
    var summary: String {
        lock.lock()
        defer { lock.unlock() }
        let total = statuses.values.reduce(0, +)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let parts = statuses.keys.sorted().map { "\($0): \(statuses[$0] ?? 0)" }
        let detail = parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
        return "Served \(total) " + (total == 1 ? "request" : "requests") + detail
            + ", \(Formatting.bytes(bytes)) of bodies in " + String(format: "%.1f s", seconds)
    }
}
