/// One of N parts of the tile space, for runs split over N processes or machines (`--shard I/N`).
///
/// At every zoom the PMTiles tile IDs of that zoom (its Hilbert curve) are cut into N ranges of
/// equal length, and part I holds the tiles of range I: each part is a few compact areas, every
/// tile is in exactly one part, and which one depends only on the tile, so N runs with the same
/// arguments together cover what one run covers, and a run of one part can be repeated.
public struct TileShard: Sendable, Hashable, CustomStringConvertible {
    /// The part, 0 to `count - 1`.
    public let index: Int
    /// How many parts.
    public let count: Int

    /// The largest number of parts.
    public static let maximumCount = 1 << 20

    /// A part.
    /// - Throws: `TileShard.ParseError` unless `0 <= index < count <= maximumCount`.
    public init(index: Int, count: Int) throws(TileShard.ParseError) {
        guard (1...Self.maximumCount).contains(count) else { throw TileShard.ParseError(text: "\(index)/\(count)", reason: "N must be 1 to \(Self.maximumCount)") }
        guard (0..<count).contains(index) else { throw TileShard.ParseError(text: "\(index)/\(count)", reason: "I must be 0 to \(count - 1)") }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    /// - Throws: `TileShard.ParseError` for anything else or numbers out of range.
    public init(parsing text: String) throws(TileShard.ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw TileShard.ParseError(text: text, reason: "expected I/N, e.g. 0/4 for the first of four parts")
        }
        try self.init(index: index, count: count)
    }

    /// The part a tile belongs to.
    public static func part(of coordinate: TileCoordinate, count: Int) -> Int {
        let z = coordinate.z
        let position = TileID.id(of: coordinate) - TileID.firstID(ofZoom: z)
        let product = position.multipliedFullWidth(by: UInt64(count))
        let part = UInt64(1 << (2 * z)).dividingFullWidth(product).quotient
        return Int(part)
    }

    /// True when the tile is in this part.
    public func contains(_ coordinate: TileCoordinate) -> Bool {
        count == 1 || Self.part(of: coordinate, count: count) == index
    }

    /// The positions along zoom `z`'s Hilbert curve (tile ID minus the zoom's first ID) that
    /// this part holds: the same tiles as `contains`, as one range.
    public func positions(atZoom z: Int) -> Range<UInt64> {
        let tiles = UInt64(1) << (2 * UInt64(z))
        func start(_ part: Int) -> UInt64 {
            let (quotient, remainder) = UInt64(count).dividingFullWidth(tiles.multipliedFullWidth(by: UInt64(part)))
            return quotient + (remainder > 0 ? 1 : 0)
        }
        return start(index)..<start(index + 1)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}
