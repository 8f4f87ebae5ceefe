public import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An area of the map read from GeoJSON: polygons (holes respected), and with a buffer the
/// corridor around lines and points, optionally grown by a border of whole tiles. A tile is
/// in the region at a zoom when its square shares area with the shape, with vertices projected
/// to Web Mercator and edges straight there (`RegionCoverSweep`).
///
/// Covers are computed per zoom when first asked and kept, as column runs per row
/// (`TileRegion.ZoomCover`): a country at zoom 16 costs memory of its outline, not of its tiles.
public final class TileRegion: Sendable, Hashable, CustomStringConvertible {
    /// The file the region was read from (or the name given), for messages.
    public let name: String
    /// The corridor's half-width around lines and points, when given.
    public let buffer: GroundDistance?
    /// Whole tiles added around the cover at every zoom.
    public let border: Int
    /// The longitude/latitude extent of the shape (before the border).
    public let bounds: BoundingBox
    /// An MD5 of the file's bytes, the buffer and the border: equal for equal regions.
    public let fingerprint: String
    let outline: RegionOutline
    private let covers = Mutex<[Int: TileRegion.ZoomCover]>([:])

    /// The largest `border`.
    public static let maximumBorder = 256

    /// Reads a GeoJSON file.
    /// - Throws: `RegionError` naming the file (and the feature) when it cannot be read, is not
    ///   GeoJSON or holds a shape TileSync refuses.
    public convenience init(geoJSONFile path: String, buffer: GroundDistance? = nil, border: Int = 0) throws(RegionError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw RegionError(file: path, message: "cannot be read (\(String(cString: strerror(errno))))") }
        close(descriptor)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RegionError(file: path, message: "cannot be read (\((error as NSError).localizedDescription))")
        }
        try self.init(geoJSON: data, name: path, buffer: buffer, border: border)
    }

    /// Reads a GeoJSON document; `name` names it in messages.
    /// - Throws: `RegionError`.
    public init(geoJSON data: Data, name: String, buffer: GroundDistance? = nil, border: Int = 0) throws(RegionError) {
        guard (0...Self.maximumBorder).contains(border) else {
            throw RegionError(file: name, message: "a border of \(border) tiles is out of range (0...\(Self.maximumBorder))")
        }
        let shapes = try GeoJSONShapeReader.read(data, file: name)
        outline = try RegionOutline(shapes, buffer: buffer, file: name)
        self.name = name
        self.buffer = buffer
        self.border = border
        bounds = outline.bounds
        let hasher = MD5Hasher()
        hasher.update(data)
        hasher.update("\nbuffer=\(buffer?.metres ?? 0)\nborder=\(border)")
        fingerprint = (try? hasher.finalize().hex) ?? "\(data.count)-\(buffer?.metres ?? 0)-\(border)"
    }

    /// The tiles covered at zoom `z` (computed once, then kept).
    public func cover(atZoom z: Int) -> TileRegion.ZoomCover {
        if let cover = covers.withLock({ $0[z] }) { return cover }
        let cover = RegionCoverSweep.cover(of: outline, zoom: z).grown(by: border)
        covers.withLock { $0[z] = cover }
        return cover
    }

    /// True when the tile is in the region.
    public func contains(_ coordinate: TileCoordinate) -> Bool {
        cover(atZoom: coordinate.z).contains(x: coordinate.x, y: coordinate.y)
    }

    /// Tiles covered at zoom `z`, counted row by row without keeping the cover (for zooms too
    /// deep to hold, such as a country at zoom 20 asked only for its count).
    public func tileCount(atZoom z: Int) -> Int {
        if let cover = covers.withLock({ $0[z] }) { return cover.tileCount }
        if border > 0 { return cover(atZoom: z).tileCount }
        var count = 0
        RegionCoverSweep.forEachRow(of: outline, zoom: z) { _, spans in
            count += TileRegion.ZoomCover.joined(spans).reduce(0) { $0 + $1.count }
        }
        return count
    }

    /// `NAME (buffer 500 m, border 1)`.
    public var description: String {
        var details: [String] = []
        if let buffer { details.append("buffer \(buffer)") }
        if border > 0 { details.append("border \(border)") }
        return details.isEmpty ? name : "\(name) (\(details.joined(separator: ", ")))"
    }

    public static func == (lhs: TileRegion, rhs: TileRegion) -> Bool { lhs.fingerprint == rhs.fingerprint }

    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
}
