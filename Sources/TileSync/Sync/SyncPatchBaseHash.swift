import Foundation
import Synchronization

/// The destination's `agg_tiles_hash` before a sync that writes a patch, computed on a thread of
/// its own from the start of the sync, through a reader of its own: the one pass over the whole
/// destination that the patch needs runs while the sync plans (and a tile server answers), not
/// after it.
final class SyncPatchBaseHash: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<ContentHash, any Error>?
    private let store: String
    private let abandoned = Atomic<Bool>(false)

    /// A hash known without a pass (recorded by the last sync for the destination as it is).
    init(known hash: ContentHash, store: String) {
        self.store = store
        result = .success(hash)
    }

    /// Starts hashing `destination`.
    init(_ destination: TileStoreLocation, isCancelled: @escaping @Sendable () -> Bool) {
        store = destination.address
        let thread = Thread { [self] in
            Self.yieldToOtherThreads()
            let computed = Result { () throws -> ContentHash in
                let reader = try destination.openReader()
                reader.setCancellation { [self] in abandoned.load(ordering: .relaxed) || isCancelled() }
                return try reader.aggregateHash()
            }
            condition.lock()
            result = computed
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Lowers this thread's priority (Linux: nice 19), so that the pass takes the time the
    /// sync's own threads leave (on a remote source, most of it) instead of slowing them.
    /// (Linux keeps the nice value per thread; 0 names the calling one.)
    private static func yieldToOtherThreads() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #else
        Thread.current.qualityOfService = .background
        #endif
    }

    /// Stops the pass early: the sync writes no patch.
    func abandon() {
        abandoned.store(true, ordering: .relaxed)
    }

    /// Waits for the hash.
    /// - Throws: `TileStoreError` when the destination could not be read.
    func value() throws -> ContentHash {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        guard let result else { throw TileStoreError(.io, store: store, message: "its agg_tiles_hash was not computed") }
        do {
            return try result.get()
        } catch let error as TileStoreError {
            throw error
        } catch {
            throw TileStoreError(.io, store: store, message: "cannot compute its agg_tiles_hash: \(error)")
        }
    }
}
