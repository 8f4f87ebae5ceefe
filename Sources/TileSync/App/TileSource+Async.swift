public import Foundation

extension TileSource {
    /// `tile(at:)` for async callers (a map view's tile loader): the read runs on a Dispatch
    /// thread, never blocking Swift concurrency's cooperative pool.
    /// - Throws: as `tile(at:)`.
    public func loadTile(at coordinate: TileCoordinate) async throws -> Data? {
        try await BlockingWork.run { try self.tile(at: coordinate) }
    }

    /// `tile(z:x:y:)` for async callers, read on a Dispatch thread.
    /// - Throws: as `tile(z:x:y:)`.
    public func loadTile(z: Int, x: Int, y: Int) async throws -> Data? {
        try await BlockingWork.run { try self.tile(z: z, x: x, y: y) }
    }

    /// Opens a store for async callers, on a Dispatch thread (a tar is streamed into a private
    /// index first, which takes as long as reading it).
    /// - Throws: as `init(location:)`.
    public static func open(_ location: TileStoreLocation) async throws -> TileSource {
        try await BlockingWork.run { try TileSource(location: location) }
    }

    /// Opens a store at a path for async callers (the kind inferred as on the command line).
    /// - Throws: as `init(path:)`.
    public static func open(path: String) async throws -> TileSource {
        try await BlockingWork.run { try TileSource(path: path) }
    }

    /// `withSnapshot` for async callers: `body` runs on a Dispatch thread inside the snapshot.
    /// - Throws: what `body` throws, or `TileStoreError` when the snapshot cannot be taken.
    public func withSnapshot<T: Sendable>(_ body: @escaping @Sendable (TileSourceSnapshot) throws -> T) async throws -> T {
        try await BlockingWork.run { try self.withSnapshot(body) }
    }
}
