import Foundation

/// The bytes of a PMTiles archive read at offsets: a local file, or a remote object read with
/// range requests (`PMTilesRemoteFile`). Thread-safe.
protocol PMTilesByteSource: AnyObject, Sendable {
    /// The archive's size in bytes.
    var size: UInt64 { get }
    /// True when each read is a round trip: readers then fetch the header and root in one read,
    /// keep directories cached, and read tiles in merged ranges, many at once.
    var isRemote: Bool { get }
    /// `count` bytes from `offset`.
    /// - Throws: `POSIXFileError` (a local file), `TileStoreError` (a remote one).
    func data(at offset: UInt64, count: Int) throws -> Data
    /// Starts reading several ranges at once (a remote source sends them in parallel); the
    /// bytes come in the ranges' order from the read's `wait()`.
    func read(_ ranges: [Range<UInt64>]) -> PMTilesPendingRead
}

extension PMTilesByteSource {
    /// `count` bytes from `offset`, as an array.
    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        [UInt8](try data(at: offset, count: count))
    }
}
