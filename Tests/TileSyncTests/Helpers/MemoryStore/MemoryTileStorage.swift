import Foundation
@testable import TileSync

/// The stores of a `MemoryStoreKind`: named sets of tiles and metadata in memory, shared by
/// every reader, writer and updater of that kind, with counters tests can check (readers alive,
/// the threads that listed a store).
final class MemoryTileStorage: @unchecked Sendable {
    struct Contents: Equatable {
        var metadata = TileMetadata()
        var tiles: [TileCoordinate: Data] = [:]
    }

    /// One `write` a memory writer was given.
    struct Write: Equatable {
        let coordinate: TileCoordinate
        let hash: ContentHash
        let original: TileCoordinate?
    }

    /// What the writer of a store was given, kept when it finished.
    struct WriteLog {
        let writes: [Write]
        let format: SniffedTileFormat?
    }

    private let lock = NSLock()
    private var writeLogs: [String: WriteLog] = [:]
    private var stores: [String: Contents] = [:]
    private var generations: [String: Int] = [:]
    private var readersAlive = 0
    private var listingThreads: [ObjectIdentifier] = []
    private var orders: [TileOrder] = []

    subscript(name: String) -> Contents? {
        get { lock.withLock { stores[name] } }
        set {
            lock.withLock {
                stores[name] = newValue
                generations[name, default: 0] += 1
            }
        }
    }

    func recordWrites(_ log: WriteLog, of name: String) { lock.withLock { writeLogs[name] = log } }

    /// What the last writer that finished the store was given.
    func writeLog(of name: String) -> WriteLog? { lock.withLock { writeLogs[name] } }

    /// A number that changes with every change of the store (its version stamp).
    func generation(of name: String) -> Int { lock.withLock { generations[name, default: 0] } }

    /// Readers opened and not yet released.
    var openReaders: Int { lock.withLock { readersAlive } }

    func readerOpened() { lock.withLock { readersAlive += 1 } }
    func readerClosed() { lock.withLock { readersAlive -= 1 } }

    /// The threads on which listings or indexes were read.
    var threadsThatListed: [ObjectIdentifier] { lock.withLock { listingThreads } }

    func listed(on thread: Thread) { lock.withLock { listingThreads.append(ObjectIdentifier(thread)) } }

    /// The orders readers were asked to prefer (`tiles(matching:preferring:)`), in turn.
    var askedOrders: [TileOrder] { lock.withLock { orders } }

    func asked(_ order: TileOrder) { lock.withLock { orders.append(order) } }
}
