import Foundation

/// GeoPackage files (OGC 12-128r18): tile pyramid tables of raster or OGC vector tiles in the
/// web quad tree, one table a store (`file.gpkg#table`, or the file's only tile table), changed in
/// place in one transaction; the file's other tables are never touched.
///
/// Claims names ending in `.gpkg` (before any `#table`), and existing SQLite files whose
/// `application_id` is GeoPackage's. The sync state lives beside the file
/// (`.NAME.gpkg#table.tilesync-state`).
struct GeoPackageStoreKind: TileStoreKind {
    typealias Options = Void

    init() {}

    var name: String { "gpkg" }
    var displayName: String { "GeoPackage" }

    var capabilities: TileStoreCapabilities {
        TileStoreCapabilities(nativeOrder: .zoomColumnRow, hasCheapRandomAccess: true, listing: [], canStoreHashes: false,
                              updates: .inPlace, deduplication: .none, preferredWriteOrder: .zoomColumnRow,
                              maintainsAggregateHash: false, isLocalIndexFile: false, keepsGrids: false, fileSuffixes: [".gpkg"])
    }

    var optionNames: Set<String> { [] }

    func claim(_ candidate: TileStoreRegistry.Candidate) -> TileStoreRegistry.Claim {
        guard candidate.entry != .remote else { return .none }
        let address = GeoPackageAddress(candidate.address)
        if address.path.lowercased().hasSuffix(".gpkg") { return .name }
        let head = address.path == candidate.address ? candidate.head : TileStoreRegistry.Candidate(address: address.path).head
        return Self.hasGeoPackageHeader(head) ? .definite : .none
    }

    func options(from options: TileStoreOptions, at location: TileStoreLocation) throws(TileStoreError) {}

    func openReader(at location: TileStoreLocation, options: Void) throws(TileStoreError) -> any TileReader {
        try GeoPackageReader(location: location)
    }

    func makeWriter(at location: TileStoreLocation, options: Void, settings: TileWriterSettings) throws(TileStoreError) -> any TileWriter {
        try GeoPackageWriter(location: location, overwrite: settings.overwrite)
    }

    func makeUpdater(at location: TileStoreLocation, options: Void) throws(TileStoreError) -> any TileUpdater {
        GeoPackageUpdater(location: location)
    }

    func resource(at location: TileStoreLocation) -> any TileStoreLocation.Resource {
        GeoPackageResource(location: location)
    }

    /// `file.gpkg#table` for each tile table of a file with more than one, when none is named.
    func containedStores(at location: TileStoreLocation) -> [String] {
        let address = GeoPackageAddress(location.address)
        guard address.table == nil, Self.isGeoPackage(path: address.path),
              let connection = try? SQLiteConnection(path: address.path, mode: .readOnly),
              let catalog = try? GeoPackageCatalog.read(connection: connection, store: location.address),
              catalog.tileTables.count > 1 else { return [] }
        return catalog.tileTables.map { address.path + "#" + $0.table }
    }

    /// True when the first bytes are an SQLite header with a GeoPackage `application_id` (at byte 68).
    static func hasGeoPackageHeader(_ head: [UInt8]) -> Bool {
        guard head.count >= 72, head.starts(with: Array("SQLite format 3\0".utf8)) else { return false }
        let id = head[68..<72].reduce(0) { $0 << 8 | Int($1) }
        return GeoPackageCatalog.applicationIDs.contains(id)
    }

    /// True for a file with a GeoPackage `application_id`, or a `gpkg_contents` table.
    static func isGeoPackage(path: String) -> Bool {
        if hasGeoPackageHeader(TileStoreRegistry.Candidate(address: path).head) { return true }
        guard let connection = try? SQLiteConnection(path: path, mode: .readOnly),
              let rows = try? connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = 'gpkg_contents'") else { return false }
        return !rows.isEmpty
    }
}

extension TileStoreKind where Self == GeoPackageStoreKind {
    /// GeoPackage tile tables (`TileStoreLocation(kind: .gpkg, address: "file.gpkg#table")`).
    static var gpkg: GeoPackageStoreKind { GeoPackageStoreKind() }
}
