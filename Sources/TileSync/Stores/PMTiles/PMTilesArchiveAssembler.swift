import Foundation

/// Writes a clustered PMTiles v3 file from collected tiles: header, root directory, metadata
/// (gzip), leaf directories (gzip), then the tile data in tile-ID order, front to back.
enum PMTilesArchiveAssembler {
    /// The world in Web Mercator, for archives whose metadata has no bounds.
    static let worldBounds = (west: -180.0, south: -85.0511287798, east: 180.0, north: 85.0511287798)

    /// Writes the archive to `path` (a new file) and returns its layout (counts, repeats).
    /// - Throws: `POSIXFileError`, `CompressionError`.
    static func write(_ collector: PMTilesTileCollector, metadata: TileMetadata, format: SniffedTileFormat,
                      to path: String) throws -> (layout: PMTilesLayout, header: PMTilesHeader) {
        let layout = try PMTilesLayout(placements: try collector.placements().records, folder: collector.folder)
        let directories = try PMTilesDirectoryBuilder.build(layout, folder: collector.folder)
        let mapped = PMTilesMetadataMapping.encode(metadata)
        let metadataBytes = try GzipCodec.compress(mapped.json, level: 9)
        let zooms = layout.firstTileID.map { (PMTilesTileID.zoom(of: $0), PMTilesTileID.zoom(of: layout.lastTileID)) } ?? (0, 0)
        var header = Self.header(metadata: metadata, format: format, bounds: mapped.bounds, center: mapped.center, zooms: zooms)
        header.addressedTilesCount = layout.addressedTiles
        header.tileEntriesCount = UInt64(layout.entryCount)
        header.tileContentsCount = layout.contents
        header.rootOffset = UInt64(PMTilesHeader.size)
        header.rootLength = UInt64(directories.root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadataBytes.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.leafDirectoriesLength = directories.leavesLength
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = layout.dataLength

        let output = try SequentialFileOutput(path: path)
        do {
            for part in [header.serialized(), directories.root, metadataBytes] {
                var failure: POSIXFileError?
                part.withUnsafeBytes { raw in
                    do throws(POSIXFileError) { try output.append(raw) } catch { failure = error }
                }
                if let failure { throw failure }
            }
            if let leaves = directories.leaves { try copy(ranges: [(0, leaves.count)], to: output, reading: leaves.read) }
            try collector.blobs.finishWriting()
            try copyTileData(layout, blobs: collector.blobs, to: output)
            try output.close()
        } catch {
            try? output.close()
            throw error
        }
        return (layout, header)
    }

    /// The header fields that come from the metadata and the tiles' zooms (no sections, no counts).
    static func header(metadata: TileMetadata, format: SniffedTileFormat, bounds: BoundingBox?,
                       center: (longitude: Double, latitude: Double, zoom: Int)?, zooms: (min: Int, max: Int)) -> PMTilesHeader {
        var header = PMTilesHeader()
        header.isClustered = true
        header.internalCompressionValue = PMTilesCompression.gzip.rawValue
        var type = PMTilesTileType(format.format)
        if type == .unknown, let name = metadata["format"]?.lowercased() {
            type = ["avif": .avif, "mlt": .mlt][name] ?? TileFormat(declared: name).map(PMTilesTileType.init) ?? .unknown
        }
        header.tileTypeValue = type.rawValue
        header.tileCompressionValue = format.format == .unknown && type == .unknown
            ? PMTilesCompression.unknown.rawValue : PMTilesCompression(format.compression).rawValue
        header.minZoom = UInt8(clamping: zooms.min)
        header.maxZoom = UInt8(clamping: max(zooms.min, zooms.max))
        let box = bounds.map { ($0.west, $0.south, $0.east, $0.north) } ?? worldBounds
        header.minLongitudeE7 = PMTilesMetadataMapping.e7(box.0)
        header.minLatitudeE7 = PMTilesMetadataMapping.e7(box.1)
        header.maxLongitudeE7 = PMTilesMetadataMapping.e7(box.2)
        header.maxLatitudeE7 = PMTilesMetadataMapping.e7(box.3)
        if let center {
            header.centerLongitudeE7 = PMTilesMetadataMapping.e7(center.longitude)
            header.centerLatitudeE7 = PMTilesMetadataMapping.e7(center.latitude)
            header.centerZoom = UInt8(min(max(center.zoom, Int(header.minZoom)), Int(header.maxZoom)))
        } else {
            header.centerLongitudeE7 = PMTilesMetadataMapping.e7((box.0 + box.2) / 2)
            header.centerLatitudeE7 = PMTilesMetadataMapping.e7((box.1 + box.3) / 2)
            header.centerZoom = header.minZoom
        }
        return header
    }

    /// Copies the blobs in data order, reading runs that lie next to each other in the scratch
    /// file (a source already in tile-ID order) in one go.
    private static func copyTileData(_ layout: PMTilesLayout, blobs: ScratchSpool, to output: SequentialFileOutput) throws {
        let stride = MemoryLayout<PMTilesLayout.Copy>.stride
        let batch = 1 << 14
        var ranges: [(UInt64, UInt64)] = []
        var position: UInt64 = 0
        let total = layout.copies.count / UInt64(stride)
        while position < total {
            let count = Int(min(UInt64(batch), total - position))
            var copies = [PMTilesLayout.Copy](repeating: .init(blobOffset: 0, length: 0), count: count)
            var failure: POSIXFileError?
            copies.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                do throws(POSIXFileError) { try layout.copies.read(at: position * UInt64(stride), count: raw.count, into: base) } catch { failure = error }
            }
            if let failure { throw failure }
            position += UInt64(count)
            ranges.removeAll(keepingCapacity: true)
            for copy in copies {
                if let last = ranges.last, last.0 + last.1 == copy.blobOffset {
                    ranges[ranges.count - 1].1 += UInt64(copy.length)
                } else {
                    ranges.append((copy.blobOffset, UInt64(copy.length)))
                }
            }
            try copy(ranges: ranges, to: output, reading: blobs.read)
        }
    }

    /// Copies byte ranges of a scratch file straight into the output's buffers.
    private static func copy(ranges: [(UInt64, UInt64)], to output: SequentialFileOutput,
                             reading read: (UInt64, Int, UnsafeMutableRawPointer) throws(POSIXFileError) -> Void) throws {
        for (start, length) in ranges {
            var done: UInt64 = 0
            while done < length {
                var failure: POSIXFileError?
                done += UInt64(try output.appendFilling(maximum: Int(min(length - done, 1 << 30))) { buffer in
                    guard let base = buffer.baseAddress else { return 0 }
                    do throws(POSIXFileError) { try read(start + done, buffer.count, base) } catch { failure = error }
                    return failure == nil ? buffer.count : 0
                })
                if let failure { throw failure }
            }
        }
    }
}
