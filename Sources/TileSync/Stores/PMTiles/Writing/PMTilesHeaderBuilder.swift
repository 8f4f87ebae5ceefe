/// Where every PMTilesHeader TileSync writes is built: the fields the metadata and the tiles'
/// zooms give (`header(metadata:...)`, also what `storedMetadata` maps back), then the counts of
/// the entries and the sections as a strategy laid them out (`header(...sections:)`).
enum PMTilesHeaderBuilder {
    /// Offsets and lengths of an archive's sections, in bytes from the start of the file.
    struct Sections {
        var rootLength: UInt64
        var metadataOffset: UInt64
        var metadataLength: UInt64
        var leafDirectoriesOffset: UInt64
        var leafDirectoriesLength: UInt64
        var tileDataOffset: UInt64
        var tileDataLength: UInt64

        /// Root, metadata, leaves and tile data back to back after the header.
        static func packed(rootLength: UInt64, metadataLength: UInt64, leavesLength: UInt64, dataLength: UInt64) -> Sections {
            let metadataOffset = UInt64(PMTilesHeader.size) + rootLength
            let leavesOffset = metadataOffset + metadataLength
            return Sections(rootLength: rootLength, metadataOffset: metadataOffset, metadataLength: metadataLength,
                            leafDirectoriesOffset: leavesOffset, leafDirectoriesLength: leavesLength,
                            tileDataOffset: leavesOffset + leavesLength, tileDataLength: dataLength)
        }
    }

    /// The world in Web Mercator, for archives whose metadata has no bounds.
    static let worldBounds = (west: -180.0, south: -85.0511287798, east: 180.0, north: 85.0511287798)

    /// The whole header of an archive: described by `metadata`, counted from `runs`, laid out as
    /// `sections` (the root directory right after the header).
    static func header(metadata: TileMetadata, format: SniffedTileFormat, runs: PMTilesEntryRuns, sections: Sections) -> PMTilesHeader {
        let mapped = PMTilesMetadataMapping.encode(metadata)
        var header = header(metadata: metadata, format: format, bounds: mapped.bounds, center: mapped.center, zooms: runs.zooms)
        runs.count(into: &header)
        place(sections, in: &header)
        return header
    }

    /// Sets the header's section offsets and lengths (the root directory right after the header).
    static func place(_ sections: Sections, in header: inout PMTilesHeader) {
        header.rootOffset = UInt64(PMTilesHeader.size)
        header.rootLength = sections.rootLength
        header.metadataOffset = sections.metadataOffset
        header.metadataLength = sections.metadataLength
        header.leafDirectoriesOffset = sections.leafDirectoriesOffset
        header.leafDirectoriesLength = sections.leafDirectoriesLength
        header.tileDataOffset = sections.tileDataOffset
        header.tileDataLength = sections.tileDataLength
    }

    /// The header fields that come from the metadata and the tiles' zooms (no sections, no counts).
    static func header(metadata: TileMetadata, format: SniffedTileFormat, bounds: BoundingBox?,
                       center: (longitude: Double, latitude: Double, zoom: Int)?, zooms: (min: Int, max: Int)) -> PMTilesHeader {
        var header = PMTilesHeader()
        header.isClustered = true
        header.internalCompressionValue = PMTilesHeader.Compression.gzip.rawValue
        var type = PMTilesHeader.TileType(format.format)
        if let declared = metadata["format"].flatMap(PMTilesHeader.TileType.init(declared:)),
           type == .unknown || (type == .mvt && declared == .mlt) {
            type = declared
        }
        header.tileTypeValue = type.rawValue
        header.tileCompressionValue = format.format == .unknown && type == .unknown
            ? PMTilesHeader.Compression.unknown.rawValue : PMTilesHeader.Compression(format.compression).rawValue
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
}
