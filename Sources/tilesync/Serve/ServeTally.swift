import Foundation
import Synchronization

/// Requests answered and bytes sent, by status, for the summary at the end of a run. Counted
/// with atomics in a few shards, picked by thread and a cache line or more apart, so that the
/// server's threads neither wait for each other nor pass the counters' lines back and forth.
final class ServeTally: @unchecked Sendable {
    private static let statusRange = 100...599
    private static let shards = 8
    /// Counters per shard: one per status of 100 to 599, then the bytes, padded to 128 bytes.
    private static let shardStride = (statusRange.count + 1 + 15) / 16 * 16
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let started = DispatchTime.now()

    init() {
        counters = .allocate(capacity: Self.shards * Self.shardStride)
        for index in 0..<Self.shards * Self.shardStride { (counters + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: Self.shards * Self.shardStride)
        counters.deallocate()
    }

    /// Counts one answer; a status outside 100 to 599 counts as 500.
    func record(status: Int, bodyBytes: Int) {
        let counted = Self.statusRange.contains(status) ? status : 500
        let shard = counters + Self.shardOfThisThread() * Self.shardStride
        shard[counted - Self.statusRange.lowerBound].add(1, ordering: .relaxed)
        shard[Self.statusRange.count].add(bodyBytes, ordering: .relaxed)
    }

    /// `Served 1234 requests (200: 1200, 404: 34), 12.3 MB of bodies in 61.0 s`.
    var summary: String {
        var total = 0, bytes = 0
        var parts: [String] = []
        for status in Self.statusRange {
            let count = (0..<Self.shards).reduce(0) { sum, shard in
                sum + counters[shard * Self.shardStride + status - Self.statusRange.lowerBound].load(ordering: .relaxed)
            }
            guard count > 0 else { continue }
            total += count
            parts.append("\(status): \(count)")
        }
        for shard in 0..<Self.shards { bytes += counters[shard * Self.shardStride + Self.statusRange.count].load(ordering: .relaxed) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let detail = parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
        return "Served \(total) " + (total == 1 ? "request" : "requests") + detail
            + ", \(Formatting.bytes(bytes)) of bodies in " + String(format: "%.1f s", seconds)
    }

    /// A shard for the calling thread: threads' control blocks lie megabytes apart, so bits
    /// above the page offset tell a few threads apart.
    private static func shardOfThisThread() -> Int {
        #if os(Linux)
        let thread = UInt(pthread_self())
        #else
        let thread = UInt(bitPattern: pthread_self())
        #endif
        return Int(truncatingIfNeeded: (thread >> 12) ^ (thread >> 21)) & (shards - 1)
    }
}
