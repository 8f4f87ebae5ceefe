/// The structure checks of `pmtiles verify`, in one pass over the directories (bounded memory
/// for clustered archives; an unclustered one counts its distinct blobs up to `maxTrackedBlobs`):
/// sections and total length, header counts against the entries (the walk's own checks: runs
/// within the max zoom, counts never passed), zooms, clustered order, and every blob inside the
/// tile data section. What only concerns the header's description of the tiles (a centre outside
/// the zooms, bounds without area) is a warning, not a problem.
struct PMTilesStructureCheck {
    static let maxTrackedBlobs = 1_000_000
    let archive: PMTilesArchive

    /// What is wrong with the archive's structure, one line each.
    func problems() -> [String] {
        var problems = sectionProblems()
        var tally = Tally(clustered: archive.header.isClustered)
        var walk = PMTilesEntryWalk(archive)
        do {
            while let entry = try walk.next(), problems.count <= 100 {
                problems += tally.add(entry, tileDataLength: archive.header.tileDataLength)
            }
        } catch {
            return problems + ["\(error)"]
        }
        return problems + tally.problems(against: archive.header)
    }

    /// What the header says of the tiles that does not hold, though the tiles are sound.
    func warnings() -> [String] {
        let header = archive.header
        var warnings: [String] = []
        if header.centerZoom < header.minZoom || header.centerZoom > header.maxZoom {
            warnings.append("header: centre zoom \(header.centerZoom) is outside zooms \(header.minZoom)-\(header.maxZoom)")
        }
        if header.minLongitudeE7 >= header.maxLongitudeE7 || header.minLatitudeE7 >= header.maxLatitudeE7 {
            warnings.append("header: the bounds have no area")
        }
        return warnings
    }

    private func sectionProblems() -> [String] {
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
        return problems
    }

    /// Counts of the walk: distinct contents, first and last tile IDs.
    private struct Tally {
        let clustered: Bool
        var contents: UInt64 = 0
        var nextNewOffset: UInt64 = 0
        var seen = Set<UInt64>()
        var tracked = true
        var firstID: UInt64?
        var lastID: UInt64 = 0

        init(clustered: Bool) { self.clustered = clustered }

        mutating func add(_ entry: PMTilesEntry, tileDataLength: UInt64) -> [String] {
            var problems: [String] = []
            if firstID == nil { firstID = entry.tileID }
            lastID = entry.endID - 1
            let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
            if overflow || end > tileDataLength {
                problems.append("tile ID \(entry.tileID): its bytes (offset \(entry.offset), length \(entry.length)) lie outside the tile data section")
            }
            if clustered {
                if entry.offset > nextNewOffset {
                    problems.append("tile ID \(entry.tileID): out of order in a clustered archive (offset \(entry.offset), expected \(nextNewOffset) or less)")
                }
                if entry.offset >= nextNewOffset {
                    contents += 1
                    nextNewOffset = end
                }
            } else if tracked {
                if seen.insert(entry.offset).inserted { contents += 1 }
                if seen.count > PMTilesStructureCheck.maxTrackedBlobs { tracked = false }
            }
            return problems
        }

        func problems(against header: PMTilesHeader) -> [String] {
            var problems: [String] = []
            if (clustered || tracked), header.tileContentsCount > 0, header.tileContentsCount != contents {
                problems.append("header: says \(header.tileContentsCount) tile contents, the directories point to \(contents)")
            }
            if let firstID {
                let minZoom = TileID.zoom(of: firstID)
                let maxZoom = TileID.zoom(of: lastID)
                if Int(header.minZoom) != minZoom { problems.append("header: min zoom \(header.minZoom), the first tile is at zoom \(minZoom)") }
                if Int(header.maxZoom) != maxZoom { problems.append("header: max zoom \(header.maxZoom), the last tile is at zoom \(maxZoom)") }
            }
            return problems
        }
    }
}
