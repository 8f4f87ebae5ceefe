import Foundation
@testable import TileSync

/// A kind of store that lives in memory, registered from the test target: the proof that a
/// kind is added without touching the engines (the converter, sync and verify see it only
/// through the protocols), and a way to test them without files. `memory:NAME` names a store;
/// nothing is claimed without the prefix. Capabilities are set per instance, so tests can
/// exercise every path of the engines (unordered sources, no random access, dedup writers).
struct MemoryStoreKind: TileStoreKind {
    typealias Options = MemoryStoreOptions

    let storage: MemoryTileStorage
    let capabilities: TileStoreCapabilities
    /// An index or listing throws after this many entries (to fail a sync mid-merge).
    let failsListingAfter: Int?
    /// Tiles a stream of the store leaves out although its listing has them (a source that
    /// changed between the two).
    let streamOmits: Set<TileCoordinate>

    init(storage: MemoryTileStorage = MemoryTileStorage(), order: TileOrder = .zoomColumnRow, randomAccess: Bool = true,
         deduplication: TileStoreCapabilities.Deduplication = .none, failsListingAfter: Int? = nil,
         streamOmits: Set<TileCoordinate> = []) {
        self.storage = storage
        self.failsListingAfter = failsListingAfter
        self.streamOmits = streamOmits
        capabilities = TileStoreCapabilities(nativeOrder: order, hasCheapRandomAccess: randomAccess, listing: [.hashes],
                                             canStoreHashes: false, updates: .inPlace, deduplication: deduplication,
                                             preferredWriteOrder: .zoomColumnRow, maintainsAggregateHash: false, isLocalIndexFile: false,
                                             keepsGrids: false)
    }

    var name: String { "memory" }
    var displayName: String { "memory store" }
    var optionNames: Set<String> { [] }

    /// A registry with this kind added.
    var registry: TileStoreRegistry { TileStoreRegistry.standard.adding(self) }

    func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim { .none }

    func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) -> MemoryStoreOptions {
        MemoryStoreOptions()
    }

    func openReader(at location: TileStoreLocation, options: MemoryStoreOptions) throws(TileStoreError) -> any TileReader {
        guard let contents = storage[location.address] else {
            throw TileStoreError(.notFound, store: location.address, message: "no such memory store")
        }
        return MemoryReader(location: location, contents: contents, kind: self)
    }

    func makeWriter(at location: TileStoreLocation, options: MemoryStoreOptions,
                    settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        if storage[location.address] != nil && !settings.overwrite {
            throw TileStoreError(.destinationExists, store: location.address, message: "already exists", hint: "pass --force to replace it")
        }
        return MemoryWriter(location: location, kind: self)
    }

    func makeUpdater(at location: TileStoreLocation, options: MemoryStoreOptions) throws(TileStoreError) -> any TileUpdater {
        MemoryUpdater(location: location, storage: storage)
    }

    func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        MemoryResource(name: location.address, storage: storage)
    }
}

/// A memory store has no options.
struct MemoryStoreOptions: Sendable {}

/// A memory store's existence and version.
struct MemoryResource: TileStoreLocation.Resource {
    let name: String
    let storage: MemoryTileStorage

    var exists: Bool { storage[name] != nil }
    var identity: String { "memory:" + name }
    var versionStamp: String? { String(storage.generation(of: name)) }

    func removeStore() {
        storage[name] = nil
    }
}
