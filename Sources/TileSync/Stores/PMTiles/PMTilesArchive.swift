import Foundation

/// An open PMTiles v3 file: its header, root directory and metadata read and checked, leaf
/// directories read on demand through a bounded cache, tiles found by binary search.
///
/// Every claim of the file is checked before it is used: sections lie inside the file,
/// directories and metadata stay under fixed size caps (no allocation is sized by the file
/// alone), leaf pointers nest at most `maxDepth` deep and stay inside their parent's ID range.
/// Not thread-safe (the leaf cache): one per thread.
final class PMTilesArchive {
    /// Bytes of one directory TileSync reads or decompresses at most (16 MiB, about 4 million
    /// entries: the leaves go-pmtiles, tippecanoe and planetiler write for a planet are below
    /// 1 MiB). A larger one is refused as a decompression bomb, naming the directory.
    static let maxDirectoryBytes = 16 << 20
    /// Decompressed bytes of the metadata at most (256 MiB).
    static let maxDecodedBytes = 256 << 20
    /// Directory levels below the root: the reference readers stop at 3.
    static let maxDepth = 3
    /// Leaf entries kept decoded for random access (24 bytes each: at most 24 MiB, the leaves
    /// of about a million entries). Streaming reads do not use the cache.
    static let cachedEntries = 1 << 20

    let source: any PMTilesByteSource
    let store: String
    let header: PMTilesHeader
    let root: [PMTilesEntry]
    private var cache: [UInt64: [PMTilesEntry]] = [:]
    /// Cached leaves' offsets, oldest first (evicted first).
    private var cacheOrder: [UInt64] = []
    private var cachedCount = 0
    /// Polled by long walks (the spool of a row-order cursor): true stops them.
    var isCancelled: @Sendable () -> Bool = { false }

    /// Opens and checks an archive.
    /// - Throws: `TileStoreError`: `.notFound`, `.notATileStore` (not PMTiles, or another
    ///   version), `.corrupt` (naming the part), `.io`.
    convenience init(path: String, store: String) throws(TileStoreError) {
        let file: RandomAccessFile
        do {
            file = try RandomAccessFile(path: path)
        } catch {
            if error.code == ENOENT { throw TileStoreError(.notFound, store: store, message: "no such file") }
            throw error.storeError(store: store)
        }
        try self.init(source: file, store: store)
    }

    /// Opens and checks an archive read from `source`.
    /// - Throws: as `init(path:store:)`.
    init(source: any PMTilesByteSource, store: String) throws(TileStoreError) {
        self.store = store
        self.source = source
        let head: [UInt8]
        do {
            head = try source.bytes(at: 0, count: Int(min(source.size, UInt64(PMTilesHeader.size))))
        } catch {
            throw PMTilesCursor.storeError(error, store: store)
        }
        do {
            header = try PMTilesHeader(parsing: head)
        } catch {
            let magicLength = min(7, head.count)
            if head.isEmpty { throw TileStoreError(.notATileStore, store: store, message: "is empty (0 bytes), not a PMTiles archive") }
            if head.count < PMTilesHeader.size, head[0..<magicLength].elementsEqual(PMTilesHeader.magic[0..<magicLength]) {
                throw error.storeError(store: store)
            }
            throw TileStoreError(.notATileStore, store: store, item: "header", message: error.message)
        }
        do {
            try Self.checkSections(header, fileSize: source.size)
            _ = try Self.compression(of: header)
            let rootBytes = try Self.readSection(source, offset: header.rootOffset, length: header.rootLength, part: "root directory")
            let decoded = try header.internalCompression?.decompress(rootBytes, limit: Self.maxDirectoryBytes, part: "root directory") ?? []
            root = try PMTilesDirectory.decode(decoded, part: "root directory", allowsEmpty: true)
        } catch {
            throw PMTilesCursor.storeError(error, store: store)
        }
    }

    /// The metadata JSON, decompressed (empty when the section is).
    /// - Throws: `TileStoreError` `.corrupt` (part `metadata`) or `.io`.
    func metadataBytes() throws(TileStoreError) -> [UInt8] {
        guard header.metadataLength > 0 else { return [] }
        do {
            let raw = try Self.readSection(source, offset: header.metadataOffset, length: header.metadataLength, part: "metadata",
                                           limit: Self.maxDecodedBytes)
            return try Self.compression(of: header).decompress(raw, limit: Self.maxDecodedBytes, part: "metadata")
        } catch {
            throw PMTilesCursor.storeError(error, store: store)
        }
    }

    /// The entries of the leaf directory a pointer names, from the cache when there.
    /// - Parameter caching: keep it for later lookups (random access; a walk reads each leaf once).
    /// - Throws: `PMTilesFormatError` naming the leaf, `POSIXFileError`.
    func leaf(_ pointer: PMTilesEntry, caching: Bool = true) throws -> [PMTilesEntry] {
        if let hit = cache[pointer.offset] { return hit }
        let caching = caching || source.isRemote
        let part = "leaf directory at offset \(pointer.offset)"
        let (end, overflow) = pointer.offset.addingReportingOverflow(UInt64(pointer.length))
        guard !overflow, end <= header.leafDirectoriesLength else {
            throw PMTilesFormatError(part, "lies past the end of the leaf directories section (\(header.leafDirectoriesLength) bytes)")
        }
        let raw = try Self.readSection(source, offset: header.leafDirectoriesOffset + pointer.offset, length: UInt64(pointer.length), part: part)
        let entries = try Self.compression(of: header).decompress(raw, limit: Self.maxDirectoryBytes, part: part)
        let decoded = try PMTilesDirectory.decode(entries, part: part)
        if decoded[0].tileID < pointer.tileID {
            throw PMTilesFormatError(part, "starts at tile ID \(decoded[0].tileID), before its pointer's \(pointer.tileID)")
        }
        if caching { remember(decoded, at: pointer.offset) }
        return decoded
    }

    /// The entry holding a tile ID, or nil when the archive has none there.
    /// - Throws: `PMTilesFormatError` (a damaged or looping directory), `POSIXFileError`.
    func entry(for id: UInt64) throws -> PMTilesEntry? {
        guard var found = Self.lastEntry(in: root, atOrBefore: id) else { return nil }
        var parent: PMTilesEntry?
        let zoomEnd = TileID.firstID(ofZoom: Int(header.maxZoom) + 1)
        for _ in 0..<Self.maxDepth {
            if !found.isLeaf {
                guard found.endID <= zoomEnd else {
                    throw PMTilesFormatError(parent.map { "leaf directory at offset \($0.offset)" } ?? "root directory",
                                             "the entry at tile ID \(found.tileID) runs \(found.runLength) tiles, past tile ID \(zoomEnd - 1), the last of the header's max zoom \(header.maxZoom)")
                }
                return id < found.endID ? found : nil
            }
            parent = found
            guard let next = Self.lastEntry(in: try leaf(found), atOrBefore: id) else { return nil }
            found = next
        }
        if !found.isLeaf { return id < found.endID ? found : nil }
        throw PMTilesFormatError(parent.map { "leaf directory at offset \($0.offset)" } ?? "root directory", "leaf directories nest more than \(Self.maxDepth) levels deep (a loop?)")
    }

    /// The bytes of the tile at `coordinate`, whose blob `entry` names.
    /// - Throws: `TileStoreError` `.invalidTile` when they lie outside the tile data section,
    ///   `.io` when the read fails.
    func tileData(_ entry: PMTilesEntry, at coordinate: TileCoordinate) throws -> Data {
        do {
            return try blob(entry, part: "tile \(coordinate) (tile ID \(TileID.id(of: coordinate)))")
        } catch let error as PMTilesFormatError {
            throw TileStoreError(.invalidTile, store: store, item: error.part, message: error.message)
        } catch {
            throw PMTilesCursor.storeError(error, store: store)
        }
    }

    /// Reads a tile's blob.
    /// - Throws: `PMTilesFormatError` when it lies outside the tile data section, `POSIXFileError`.
    func blob(_ entry: PMTilesEntry, part: @autoclosure () -> String) throws -> Data {
        try checkBlob(entry, part: part())
        return try source.data(at: header.tileDataOffset + entry.offset, count: Int(entry.length))
    }

    /// Checks that a tile's blob lies inside the tile data section and under the tile size limit.
    /// - Throws: `PMTilesFormatError` naming `part`.
    func checkBlob(_ entry: PMTilesEntry, part: @autoclosure () -> String) throws(PMTilesFormatError) {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        guard !overflow, end <= header.tileDataLength else {
            throw PMTilesFormatError(part(), "its bytes (offset \(entry.offset), length \(entry.length)) lie past the end of the tile data section (\(header.tileDataLength) bytes)")
        }
        guard Int(entry.length) <= FileBytes.maxTileSize else {
            throw PMTilesFormatError(part(), "is \(entry.length) bytes, over TileSync's limit of \(FileBytes.maxTileSize)")
        }
    }

    static func lastEntry(in directory: [PMTilesEntry], atOrBefore id: UInt64) -> PMTilesEntry? {
        var low = 0
        var high = directory.count
        while low < high {
            let middle = (low + high) / 2
            if directory[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : directory[low - 1]
    }

    static func compression(of header: PMTilesHeader) throws(PMTilesFormatError) -> PMTilesHeader.Compression {
        guard let compression = header.internalCompression else {
            throw PMTilesFormatError("header", "unsupported internal compression \(header.internalCompressionValue)")
        }
        return compression
    }

    private static func checkSections(_ header: PMTilesHeader, fileSize: UInt64) throws(PMTilesFormatError) {
        for section in header.sections {
            let (end, overflow) = section.offset.addingReportingOverflow(section.length)
            guard !overflow, end <= fileSize else {
                throw PMTilesFormatError("header", "the \(section.name) (offset \(section.offset), length \(section.length)) lies past the end of the file (\(fileSize) bytes)")
            }
        }
        guard header.rootLength > 0 else { throw PMTilesFormatError("header", "the root directory is empty (length 0)") }
    }

    private static func readSection(_ source: any PMTilesByteSource, offset: UInt64, length: UInt64, part: String,
                                    limit: Int = maxDirectoryBytes) throws -> [UInt8] {
        guard length <= UInt64(limit) else {
            throw PMTilesFormatError(part, "is \(length) bytes, larger than TileSync reads")
        }
        return try source.bytes(at: offset, count: Int(length))
    }

    private func remember(_ entries: [PMTilesEntry], at offset: UInt64) {
        guard entries.count <= Self.cachedEntries else { return }
        while cachedCount + entries.count > Self.cachedEntries, !cacheOrder.isEmpty {
            let oldest = cacheOrder.removeFirst()
            cachedCount -= cache.removeValue(forKey: oldest)?.count ?? 0
        }
        cache[offset] = entries
        cacheOrder.append(offset)
        cachedCount += entries.count
    }
}
