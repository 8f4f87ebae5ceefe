import Foundation
import Testing
@testable import TileSync

/// Stores of every kind in `TileStoreRegistry.standard`, made in one temporary folder (and, for
/// object storage, on an `rclone serve s3` server started on first use and stopped with the
/// value). The pair matrices take their arguments from `kindNames`, so a kind added to the
/// registry runs in every matrix without a line here: its stores are named with its first file
/// suffix (`TileStoreCapabilities.fileSuffixes`), or are folders when it has none.
final class KindStores {
    /// The registry's kinds that can be written, in its order; `s3` only where rclone is
    /// installed. Sources only (tile servers) have tests of their own.
    static let kindNames: [String] = TileStoreRegistry.standard.kinds.filter(\.capabilities.isWritable).map(\.name)
        .filter { $0 != "s3" || S3TestServer.available }

    let directory: TemporaryDirectory
    private var server: S3TestServer?

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Where a store of this kind named `name` lives here: a file named with the kind's first
    /// file suffix, a folder for a local kind without one, an object prefix on the S3 server.
    /// - Throws: when the registry has no such kind.
    func location(_ kind: String, _ name: String) throws -> TileStoreLocation {
        guard let found = TileStoreRegistry.standard.kind(named: kind) else { throw KindStoresError(kind: kind) }
        if kind == "s3" { return try s3Server().location("s3://tiles/" + name) }
        let suffix = found.capabilities.fileSuffixes.first ?? "-folder"
        return TileStoreLocation(anyKind: found, address: directory.file(name + suffix))
    }

    /// Writes `tiles` to a new store of `kind` named `name`.
    @discardableResult
    func write(_ tiles: [Tile], kind: String, name: String, metadata: TileMetadata = GeneratedStore.defaultMetadata) throws -> TileStoreLocation {
        let location = try location(kind, name)
        let writer = try location.makeWriter()
        try writer.begin(metadata: metadata, format: SniffedTileFormat(.png))
        for tile in tiles { try writer.write(tile) }
        try writer.finish()
        return location
    }

    /// Every tile of a store, by XYZ coordinate.
    func tiles(_ location: TileStoreLocation) throws -> [TileCoordinate: Data] {
        let cursor = try location.openReader().tiles(matching: .all)
        var tiles: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() { tiles[tile.coordinate] = tile.data }
        return tiles
    }

    /// Modification times of every file that holds the store: the file itself, each file of a
    /// folder, or each object's file in the S3 server's folder.
    func modificationTimes(_ location: TileStoreLocation) throws -> [String: Int64] {
        guard location.kind.name == "s3" else { return try KindStores.modificationTimes(atPath: location.address) }
        let prefix = String(location.address.dropFirst("s3://".count))
        return try KindStores.modificationTimes(atPath: try s3Server().root.file(prefix))
    }

    /// Modification times of everything in a store (the file itself, or each file of a folder).
    static func modificationTimes(atPath path: String) throws -> [String: Int64] {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        guard isDirectory.boolValue else { return [path: FileStamp(path: path)?.modificationTime ?? -1] }
        var times: [String: Int64] = [:]
        let files = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        for file in files where !file.hasPrefix(".tilesync") {
            times[file] = FileStamp(path: path + "/" + file)?.modificationTime
        }
        return times
    }

    private func s3Server() throws -> S3TestServer {
        if let server { return server }
        let started = try S3TestServer()
        server = started
        return started
    }
}

/// A kind of the registry that `KindStores` cannot place yet.
struct KindStoresError: Error, CustomStringConvertible {
    let kind: String
    var description: String { "KindStores has no address for the registry's kind '\(kind)': add one to location(_:_:)" }
}
