/// The structure checks of `pmtiles verify`, in one pass over the directories (bounded memory
/// for clustered archives; an unclustered one counts its distinct blobs up to `maxTrackedBlobs`):
/// sections and total length, header counts against the entries, zooms, centre, bounds,
/// clustered order, and every blob inside the tile data section.
struct PMTilesStructureCheck {
    static let maxTrackedBlobs = 1_000_000
    let archive: PMTilesArchive

    func problems() -> [String] {
        let header = archive.header
        var problems: [String] = []
        let layoutLength = UInt64(PMTilesHeader.size) + header.rootLength + header.metadataLength + header.leafDirectoriesLength + header.tileDataLength
        let paddedLength = 16_384 + header.metadataLength + header.leafDirectoriesLength + header.tileDataLength
        if archive.source.size != layoutLength && archive.source.size != paddedLength {
            problems.append("header: the sections add up to \(layoutLength) bytes, the file has \(archive.source.size)")
        }
        if header.rootOffset + header.rootLength > 16_384 {
            problems.append("header: the root directory ends at byte \(header.rootOffset + header.rootLength), past the first 16,384 bytes")
        }
        var addressed: UInt64 = 0
        var entries: UInt64 = 0
        var contents: UInt64 = 0
        var nextNewOffset: UInt64 = 0
        var seen = Set<UInt64>()
        var tracked = true
        var firstID: UInt64?
        var lastID: UInt64 = 0
        var walk = PMTilesEntryWalk(archive)
        do {
            while let entry = try walk.next() {
                addressed += UInt64(entry.runLength)
                entries += 1
                if firstID == nil { firstID = entry.tileID }
                lastID = entry.endID - 1
                let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
                if overflow || end > header.tileDataLength {
                    problems.append("tile ID \(entry.tileID): its bytes (offset \(entry.offset), length \(entry.length)) lie outside the tile data section")
                }
                if header.isClustered {
                    if entry.offset == nextNewOffset {
                        contents += 1
                        nextNewOffset = end
                    } else if entry.offset > nextNewOffset {
                        problems.append("tile ID \(entry.tileID): out of order in a clustered archive (offset \(entry.offset), expected \(nextNewOffset) or less)")
                        nextNewOffset = end
                        contents += 1
                    }
                } else if tracked {
                    if seen.insert(entry.offset).inserted { contents += 1 }
                    if seen.count > Self.maxTrackedBlobs { tracked = false }
                }
                if problems.count > 100 { break }
            }
        } catch {
            problems.append("\(error)")
            return problems
        }
        if header.addressedTilesCount != addressed {
            problems.append("header: says \(header.addressedTilesCount) addressed tiles, the directories address \(addressed)")
        }
        if header.tileEntriesCount != entries {
            problems.append("header: says \(header.tileEntriesCount) tile entries, the directories hold \(entries)")
        }
        if (header.isClustered || tracked) && header.tileContentsCount != contents {
            problems.append("header: says \(header.tileContentsCount) tile contents, the directories point to \(contents)")
        }
        if let firstID {
            let minZoom = PMTilesTileID.zoom(of: firstID)
            let maxZoom = PMTilesTileID.zoom(of: lastID)
            if Int(header.minZoom) != minZoom { problems.append("header: min zoom \(header.minZoom), the first tile is at zoom \(minZoom)") }
            if Int(header.maxZoom) != maxZoom { problems.append("header: max zoom \(header.maxZoom), the last tile is at zoom \(maxZoom)") }
        }
        if header.centerZoom < header.minZoom || header.centerZoom > header.maxZoom {
            problems.append("header: centre zoom \(header.centerZoom) is outside zooms \(header.minZoom)-\(header.maxZoom)")
        }
        if header.minLongitudeE7 >= header.maxLongitudeE7 || header.minLatitudeE7 >= header.maxLatitudeE7 {
            problems.append("header: the bounds have no area")
        }
        return problems
    }
}
