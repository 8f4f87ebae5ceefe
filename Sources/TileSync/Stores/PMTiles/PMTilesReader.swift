public import Foundation

/// Reads a PMTiles v3 archive: tiles streamed in tile-ID order (run lengths expanded, a shared
/// blob read once per run), `tile(at:)` by binary search through the root and cached leaves,
/// summaries from the directories alone, and the structure checks of `pmtiles verify`.
///
/// Errors name the archive and the part: `.notATileStore` (not PMTiles, another version),
/// `.corrupt` (header, a directory, the metadata), `.invalidTile` (one tile's bytes out of
/// the data section, or past zoom 30), `.invalidMetadata`, `.io`.
public final class PMTilesReader: TileReader, IntegrityChecking, MergeStreaming, StoreInspection, CancellableReading,
    CompressionDeclaring, SelectiveStreaming {
    public let location: TileStoreLocation
    /// The archive's header.
    public var header: PMTilesHeader { archive.header }
    let archive: PMTilesArchive

    /// Opens an archive and reads its header and root directory, with the options `location` holds.
    /// - Throws: `TileStoreError` as described on the type.
    public convenience init(location: TileStoreLocation) throws(TileStoreError) {
        try self.init(location: location, options: nil)
    }

    /// Opens an archive with its typed options (nil: read from `location`).
    /// - Throws: `TileStoreError` as described on the type.
    init(location: TileStoreLocation, options: PMTilesStoreOptions?) throws(TileStoreError) {
        self.location = location
        let typed: PMTilesStoreOptions
        if let options { typed = options } else { typed = try PMTilesStoreOptions.of(location) }
        archive = try PMTilesSourceOpener.open(location.address, options: typed)
    }

    /// Remote for an archive read with range requests (`s3://`, `http(s)://`); a summary from
    /// the directories; a listing without hashes.
    public var traits: TileReaderTraits {
        TileReaderTraits(listingKnowsContent: false, isRemote: archive.source.isRemote, hasCheapSummary: true)
    }

    public var schemaDescription: String {
        "PMTiles v3, \(header.isClustered ? "clustered" : "not clustered"), \(header.internalCompression?.description ?? "unknown") directories"
    }

    public var order: TileOrder { .tileID }

    /// Stops the spool of a row-order cursor (which reads every tile entry before the first tile).
    public func setCancellation(_ isCancelled: @escaping @Sendable () -> Bool) {
        archive.isCancelled = isCancelled
    }

    /// Structure checks, merge hints, format details, cancellation, the declared compression;
    /// for a remote archive, the wanted tiles streamed in merged ranges.
    public var roles: TileReaderRoles { TileReaderRoles(integrity: self, mergeStreaming: self, inspection: self, cancellation: self,
                                                        compressionDeclaration: self,
                                                        selectiveStreaming: archive.source.isRemote ? self : nil) }

    /// The last tile of the archive in tile-ID order (a bound for any filter): the last entry
    /// of the root, through its last leaves; nil when a directory cannot be read or is empty.
    public func lastStreamedCoordinate(matching filter: TileFilter) -> TileCoordinate? {
        var directory = archive.root
        for _ in 0...PMTilesArchive.maxDepth {
            guard let last = directory.last else { return nil }
            guard last.isLeaf else {
                guard let (z, x, y) = try? TileID.zxy(of: last.endID - 1) else { return nil }
                return try? TileCoordinate(z: z, x: x, y: y)
            }
            guard let leaf = try? archive.leaf(last, caching: false) else { return nil }
            directory = leaf
        }
        return nil
    }

    /// The header's fields: version, clustering, compressions, type, counts, zooms, bounds,
    /// centre, and where each section is.
    /// The header's tile compression (nil when it says unknown).
    public func declaredTileCompression() throws -> TileCompression? {
        switch header.tileCompression {
        case .none?: TileCompression.none
        case .gzip?: .gzip
        case .brotli?: .brotli
        case .zstd?: .zstd
        case .unknown?, nil: nil
        }
    }

    public var details: [(label: String, value: String)] {
        let header = header
        func name<Value: CustomStringConvertible>(_ value: Value?, raw: UInt8) -> String { value?.description ?? "undefined (\(raw))" }
        let degrees = PMTilesMetadataMapping.degrees
        var rows: [(label: String, value: String)] = [
            ("version", "3"),
            ("clustered", header.isClustered ? "yes" : "no"),
            ("internal compression", name(header.internalCompression, raw: header.internalCompressionValue)),
            ("tile compression", name(header.tileCompression, raw: header.tileCompressionValue)),
            ("tile type", name(header.tileType, raw: header.tileTypeValue)),
            ("addressed tiles", String(header.addressedTilesCount)),
            ("tile entries", String(header.tileEntriesCount)),
            ("tile contents", String(header.tileContentsCount)),
            ("zooms", "\(header.minZoom)-\(header.maxZoom)"),
            ("bounds", [header.minLongitudeE7, header.minLatitudeE7, header.maxLongitudeE7, header.maxLatitudeE7].map(degrees).joined(separator: ",")),
            ("center", "\(degrees(header.centerLongitudeE7)),\(degrees(header.centerLatitudeE7)),\(header.centerZoom)"),
            ("root entries", String(archive.root.count)),
            ("leaf pointers in root", String(archive.root.filter(\.isLeaf).count)),
        ]
        for section in header.sections {
            rows.append((section.name, "offset \(section.offset), \(section.length) bytes"))
        }
        return rows
    }

    public func metadata() throws -> TileMetadata {
        try PMTilesMetadataMapping.decode(try archive.metadataBytes(), header: header, store: location.address)
    }

    /// Over range requests, in merged ranges fetched in parallel (`PMTilesBatchCursor`).
    /// A local archive's walk of its directories, each blob read only when asked
    /// (`PMTilesLazyCursor`); nil for a remote one, whose blobs are fetched in batches.
    func lazyTiles(matching filter: TileFilter) throws -> (any LazyTileCursor)? {
        archive.source.isRemote ? nil : PMTilesLazyCursor(archive: archive, filter: filter)
    }

    public func tiles(matching filter: TileFilter) throws -> any TileCursor {
        archive.source.isRemote ? PMTilesBatchCursor(archive: archive, filter: filter) : PMTilesCursor(archive: archive, filter: filter)
    }

    /// The wanted tiles of a remote archive in merged range requests (`PMTilesBatchCursor`).
    func tiles(matching filter: TileFilter, wanted: @escaping (TileCoordinate) throws -> Bool) throws -> any TileCursor {
        PMTilesBatchCursor(archive: archive, filter: filter, wanted: wanted)
    }

    /// In zoom, column, row order when a writer prefers it (sorted on disk from the directories,
    /// blobs read by offset) and the archive is local, else in tile-ID order.
    public func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        guard !archive.source.isRemote, preferred == .zoomColumnRow || preferred == .zoomColumnTMSRow else { return try tiles(matching: filter) }
        return try PMTilesRowOrderCursor(archive: archive, filter: filter, order: preferred)
    }

    public func tile(at coordinate: TileCoordinate) throws -> Data? {
        let entry: PMTilesEntry?
        do {
            entry = try archive.entry(for: TileID.id(of: coordinate))
        } catch {
            throw PMTilesCursor.storeError(error, store: location.address)
        }
        return try entry.map { try archive.tileData($0, at: coordinate) }
    }

    public func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        PMTilesListingCursor(archive: archive, filter: filter)
    }

    /// From the directories alone, each run counted by arithmetic.
    public func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        do {
            return try PMTilesRunSummary.summary(of: archive, filter: filter)
        } catch {
            throw PMTilesCursor.storeError(error, store: location.address)
        }
    }

    public func integrityProblems() throws -> [String] {
        PMTilesStructureCheck(archive: archive).problems()
    }

    /// By arithmetic over the runs: the time of the directories, whatever the runs claim.
    public func amount(matching filter: TileFilter, upTo limit: Int) throws -> TileAmount? {
        do {
            let (tiles, bytes) = try PMTilesRunSummary.amount(of: archive, filter: filter)
            return TileAmount(tiles: tiles, bytes: bytes, distinctBytes: min(Int(clamping: header.tileDataLength), bytes))
        } catch {
            throw PMTilesCursor.storeError(error, store: location.address)
        }
    }

    public func integrityWarnings() throws -> [String] {
        PMTilesStructureCheck(archive: archive).warnings()
    }
}
