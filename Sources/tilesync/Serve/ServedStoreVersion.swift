import Dispatch
import Foundation
import TileSync

/// One version of a served store: its `TileSource` and what the index page and TileJSON say
/// about it. The tile count and zooms of a local store are counted in the background after it
/// opens, so the server answers at once however large the store is.
final class ServedStoreVersion: @unchecked Sendable {
    let source: TileSource
    /// The store's file stamp when it was opened (nil for folders and remote stores).
    let stamp: String?
    let kindName: String
    let isRemote: Bool
    /// The tiles' format: declared in the metadata, else the first tile's.
    let format: TileFormat
    /// The tiles' compression as the store declares it (PMTiles' header): brotli has no magic bytes.
    let declaredCompression: TileCompression?
    /// The path of a local PMTiles archive, served whole with range requests.
    let archivePath: String?
    /// Reads within this long share one view of an MBTiles (one SQLite read transaction): no
    /// lock and journal check per tile; a tile is at most twice this old, and a writer's commit
    /// waits at most about as long.
    static let heldReadSeconds = 0.01
    /// An SQLite store's file is read through a memory map of up to this many bytes, with the
    /// SIGBUS guard installed (`MappedFileGuard`); where the guard is missing, through reads.
    static let mappedReadBytes = 1 << 40
    private let lock = NSLock()
    private var counted: TileSetSummary?
    private var countFailure: String?

    /// Opens the store and starts counting its tiles when it is local.
    /// - Throws: `TileStoreError` when the store cannot be opened.
    init(location: TileStoreLocation) throws {
        stamp = location.resource.versionStamp
        source = try TileSource(location: location, heldReadSeconds: Self.heldReadSeconds,
                                mappedReadBytes: MappedFileGuard.install() ? Self.mappedReadBytes : 0)
        let reader = try location.openReader()
        kindName = location.kind.displayName
        isRemote = reader.isRemote
        declaredCompression = try reader.declaredTileCompression()
        if let declared = source.metadata.format {
            format = declared
        } else {
            let first = try? reader.tiles(matching: .all).next()
            format = first.map { SniffedTileFormat(sniffing: $0.data).format } ?? .unknown
        }
        archivePath = location.kind.capabilities.isRangeReadArchive && !reader.isRemote ? location.address : nil
        guard !isRemote else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            do {
                let summary = try location.openReader().summary(matching: .all)
                lock.withLock { counted = summary }
            } catch {
                lock.withLock { countFailure = String(describing: error) }
            }
        }
    }

    var metadata: TileMetadata { source.metadata }

    /// The tiles per zoom once counted; nil while counting, for a remote store, or when the
    /// count failed.
    var summary: TileSetSummary? { lock.withLock { counted } }

    /// Why the tiles could not be counted.
    var summaryFailure: String? { lock.withLock { countFailure } }

    /// The zooms the tiles hold once counted (a client asks for deeper tiles only up to the
    /// TileJSON's `maxzoom`, and overzooms past it), else the metadata's while counting or for a
    /// remote store, else 0 to 22.
    var zooms: ClosedRange<Int> {
        if let counted = summary?.zooms.map(\.z), let low = counted.min(), let high = counted.max() { return low...high }
        let low = metadata.minZoom ?? 0
        return low...max(low, metadata.maxZoom ?? 22)
    }

    /// The metadata's bounds, else the counted tiles' extent at their deepest zoom, else the
    /// Web Mercator world.
    var bounds: BoundingBox {
        if let bounds = metadata.bounds { return bounds }
        if let deepest = summary?.zooms.max(by: { $0.z < $1.z }),
           let first = try? TileCoordinate(z: deepest.z, x: deepest.columns.lowerBound, y: deepest.rows.lowerBound),
           let last = try? TileCoordinate(z: deepest.z, x: deepest.columns.upperBound, y: deepest.rows.upperBound) {
            let northWest = WebMercator.bounds(of: first), southEast = WebMercator.bounds(of: last)
            if let box = try? BoundingBox(west: northWest.west, south: southEast.south, east: southEast.east, north: northWest.north) {
                return box
            }
        }
        return BoundingBox.world
    }

    /// The metadata's `center` (longitude, latitude, zoom) when it parses, else the middle of
    /// the bounds at the lowest zoom.
    var center: (longitude: Double, latitude: Double, zoom: Int) {
        let parts = (metadata["center"] ?? "").split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        if parts.count >= 2, let longitude = parts[0], let latitude = parts[1], abs(longitude) <= 180, abs(latitude) <= 90 {
            let zoom = parts.count > 2 ? parts[2].flatMap { $0.isFinite ? Int(min(max($0.rounded(), -1), 31)) : nil } : nil
            return (longitude, latitude, min(max(zoom ?? zooms.lowerBound, zooms.lowerBound), zooms.upperBound))
        }
        let box = bounds
        let east = box.crossesAntimeridian ? box.east + 360 : box.east
        var longitude = (box.west + east) / 2
        if longitude > 180 { longitude -= 360 }
        return (longitude, (box.south + box.north) / 2, zooms.lowerBound)
    }

    /// `vector_layers` from the metadata (a key of its own, or inside the MBTiles `json` text),
    /// as JSON values; empty when none is declared.
    var vectorLayers: [JSONValue] {
        for key in ["vector_layers", "json"] {
            guard let text = metadata[key], let value = try? JSONParser.parse(Array(text.utf8)) else { continue }
            if let layers = value.array ?? value["vector_layers"]?.array { return layers }
        }
        return []
    }
}
