import Foundation

/// Gathers per-tile errors met while indexing (a class so a closure can fill it, from any thread).
final class InvalidCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = SkippedItems()

    var items: SkippedItems {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    func record(_ error: TileStoreError) {
        lock.lock()
        defer { lock.unlock() }
        collected.record("\(error.store): \(error.item ?? "")", reason: error.message)
    }
}
