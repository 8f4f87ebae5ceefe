import Foundation

/// Whole archives whose tiles lie in disjoint tile-ID ranges joined into one by copying each
/// one's tile data section as it is and rewriting only the directories: no tile is read,
/// hashed or placed one by one, so joining costs about a copy of the bytes. The archives must
/// hold one tile type and one tile compression. Parts are laid out by their first tile ID, so
/// the result is clustered when every part is.
final class PMTilesJoin {
    private struct Part {
        let archive: PMTilesArchive
        /// Where the source was given among the parts (for the tiles-per-part counts).
        let position: Int
        let firstID: UInt64
        let endID: UInt64
        let addressedTiles: UInt64
        /// Bytes of all its tiles, a repeated blob counted each time.
        let tileBytes: UInt64
    }

    private let parts: [Part]
    private let positions: Int

    /// The join of `locations`, or nil when they do not allow one: a part that is not a
    /// PMTiles archive, tile types or compressions that differ, or tile-ID ranges that overlap
    /// (the tiles are then merged one by one).
    /// - Throws: `TileStoreError` when an archive cannot be read or its directories are damaged.
    static func plan(_ locations: [TileStoreLocation]) throws -> PMTilesJoin? {
        guard locations.allSatisfy({ $0.kind is PMTilesStoreKind }) else { return nil }
        var parts: [Part] = []
        for (position, location) in locations.enumerated() {
            let archive = try PMTilesSourceOpener.open(location.address, options: try PMTilesStoreOptions.of(location))
            if let first = parts.first?.archive.header,
               first.tileTypeValue != archive.header.tileTypeValue || first.tileCompressionValue != archive.header.tileCompressionValue {
                return nil
            }
            guard let part = try span(of: archive, position: position) else { continue }
            parts.append(part)
        }
        parts.sort { $0.firstID < $1.firstID }
        for (earlier, later) in zip(parts, parts.dropFirst()) where earlier.endID > later.firstID { return nil }
        return PMTilesJoin(parts: parts, positions: locations.count)
    }

    private init(parts: [Part], positions: Int) {
        self.parts = parts
        self.positions = positions
    }

    /// The first and one-past-last tile ID of an archive's tiles, and every entry checked to lie
    /// in its tile data section; nil for an archive without tiles.
    private static func span(of archive: PMTilesArchive, position: Int) throws -> Part? {
        var walk = PMTilesEntryWalk(archive)
        var first: UInt64?
        var end: UInt64 = 0
        var addressed: UInt64 = 0
        var bytes: UInt64 = 0
        do {
            while let entry = try walk.next() {
                try archive.checkBlob(entry, part: "tile ID \(entry.tileID)")
                if first == nil { first = entry.tileID }
                end = entry.endID
                addressed += UInt64(entry.runLength)
                bytes += UInt64(entry.runLength) * UInt64(entry.length)
            }
        } catch {
            throw PMTilesCursor.storeError(error, store: archive.store)
        }
        return first.map { Part(archive: archive, position: position, firstID: $0, endID: end, addressedTiles: addressed, tileBytes: bytes) }
    }

    /// Tiles each location gave, in the order the locations were given.
    var tilesPerPart: [Int] {
        var counts = Array(repeating: 0, count: positions)
        for part in parts { counts[part.position] = Int(part.addressedTiles) }
        return counts
    }

    /// Bytes of all the tiles, a repeated blob counted each time.
    var tileBytes: UInt64 { parts.reduce(0) { $0 + $1.tileBytes } }

    /// Bytes of tile data the joined archive holds.
    var dataLength: UInt64 { parts.reduce(0) { $0 + $1.archive.header.tileDataLength } }

    /// Writes the joined archive to `path` (a new file), with `metadata` (its `minzoom` and
    /// `maxzoom` set from the tiles), directories made in `folder`.
    /// - Returns: the tiles addressed and the distinct blobs (0 when a part does not count them).
    /// - Throws: `POSIXFileError`, `CompressionError`, `TileStoreError` from a part,
    ///   `CancellationError` once `isCancelled`.
    func write(metadata given: TileMetadata, to path: String, folder: String,
               isCancelled: @Sendable () -> Bool) throws -> (tiles: UInt64, contents: UInt64) {
        let entries = try PMTilesEntryFile(folder: folder)
        try collectEntries(into: entries, isCancelled: isCancelled)
        try entries.flush()
        let zooms = (parts.first.map { TileID.zoom(of: $0.firstID) } ?? 0, parts.last.map { TileID.zoom(of: $0.endID - 1) } ?? 0)
        var metadata = given
        metadata["minzoom"] = String(zooms.0)
        metadata["maxzoom"] = String(zooms.1)
        let directories = try PMTilesDirectoryBuilder.build(entries, folder: folder)
        let metadataBytes = try GzipCodec.compress(PMTilesMetadataMapping.encode(metadata).json, level: 9)
        let header = self.header(metadata: metadata, zooms: zooms, entries: entries.count, directories: directories,
                                 metadataLength: UInt64(metadataBytes.count))
        let output = try SequentialFileOutput(path: path)
        do {
            let head = header.serialized() + directories.root + metadataBytes
            try output.appendInPlace(head.count) { buffer in buffer.copyBytes(from: head) }
            if let leaves = directories.leaves { try output.appendCopy(length: leaves.count) { try leaves.read(at: $0, count: $1, into: $2) } }
            for part in parts { try copyTileData(of: part, to: output, isCancelled: isCancelled) }
            try output.close()
        } catch {
            try? output.close()
            throw error
        }
        return (header.addressedTilesCount, header.tileContentsCount)
    }

    /// Every part's entries, their offsets moved past the tile data of the parts before it.
    private func collectEntries(into entries: PMTilesEntryFile, isCancelled: @Sendable () -> Bool) throws {
        var base: UInt64 = 0
        for part in parts {
            var walk = PMTilesEntryWalk(part.archive)
            do {
                while let entry = try walk.next() {
                    try entries.append(PMTilesEntry(tileID: entry.tileID, offset: base + entry.offset, length: entry.length,
                                                    runLength: entry.runLength))
                }
            } catch let error as PMTilesFormatError {
                throw PMTilesCursor.storeError(error, store: part.archive.store)
            }
            base += part.archive.header.tileDataLength
            if isCancelled() { throw CancellationError() }
        }
    }

    private func copyTileData(of part: Part, to output: SequentialFileOutput, isCancelled: @Sendable () -> Bool) throws {
        let source = part.archive.source, start = part.archive.header.tileDataOffset, store = part.archive.store
        try output.appendCopy(length: part.archive.header.tileDataLength, isCancelled: isCancelled) { offset, count, buffer in
            if let file = source as? RandomAccessFile {
                try file.read(at: start + offset, count: count, into: buffer)
                return
            }
            let data = try source.data(at: start + offset, count: count)
            guard data.count == count else {
                throw TileStoreError(.corrupt, store: store, item: "tile data", message: "ends early: it changed while it was joined")
            }
            data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    private func header(metadata: TileMetadata, zooms: (Int, Int), entries: Int, directories: PMTilesDirectoryBuilder.Directories,
                        metadataLength: UInt64) -> PMTilesHeader {
        let mapped = PMTilesMetadataMapping.encode(metadata)
        var header = PMTilesHeaderBuilder.header(metadata: metadata, format: SniffedTileFormat(.unknown), bounds: mapped.bounds,
                                                 center: mapped.center, zooms: (zooms.0, zooms.1))
        let first = parts.first?.archive.header
        header.tileTypeValue = first?.tileTypeValue ?? header.tileTypeValue
        header.tileCompressionValue = first?.tileCompressionValue ?? header.tileCompressionValue
        header.isClustered = parts.allSatisfy { $0.archive.header.isClustered }
        header.addressedTilesCount = parts.reduce(0) { $0 + $1.addressedTiles }
        header.tileEntriesCount = UInt64(entries)
        let contents = parts.map { $0.archive.header.tileContentsCount }
        header.tileContentsCount = contents.contains(0) ? 0 : contents.reduce(0, +)
        PMTilesHeaderBuilder.place(.packed(rootLength: UInt64(directories.root.count), metadataLength: metadataLength,
                                           leavesLength: directories.leavesLength, dataLength: dataLength), in: &header)
        return header
    }
}
