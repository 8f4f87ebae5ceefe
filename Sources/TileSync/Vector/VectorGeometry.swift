/// The geometry commands of the specification (MoveTo 1, LineTo 2, ClosePath 7; the count in
/// the high bits; zigzag-encoded deltas), decoded and checked against the feature's type:
/// points are one MoveTo of one or more points; a line a MoveTo of one and a LineTo of one or
/// more, repeated; a ring a MoveTo of one, a LineTo of two or more and a ClosePath of one.
enum VectorGeometry {
    static let moveTo: UInt32 = 1, lineTo: UInt32 = 2, closePath: UInt32 = 7

    /// The command sequences as absolute points, one array per MoveTo.
    /// - Throws: `VectorTile.DecodingError` (offset: the command's index in the geometry) when
    ///   a command is unknown, its parameters run past the geometry, or it does not fit the type.
    static func decode(_ geometry: [UInt32], type: VectorTile.GeometryType) throws(VectorTile.DecodingError) -> [[(x: Int64, y: Int64)]] {
        var parts: [[(x: Int64, y: Int64)]] = []
        var x: Int64 = 0, y: Int64 = 0
        var index = 0
        var ringClosed = false
        while index < geometry.count {
            let commandIndex = index
            let command = geometry[index] & 7, count = Int(geometry[index] >> 3)
            index += 1
            func fail(_ reason: String) -> VectorTile.DecodingError {
                VectorTile.DecodingError(reason, offset: commandIndex)
            }
            switch command {
            case moveTo, lineTo:
                guard count > 0 else { throw fail("a \(name(command)) of 0 points") }
                guard count <= (geometry.count - index) / 2 else {
                    throw fail("a \(name(command)) of \(count) points past the end of the geometry")
                }
                let defect = command == moveTo ? moveToDefect(count: count, type: type, parts: parts, ringClosed: ringClosed)
                    : lineToDefect(count: count, type: type, parts: parts, ringClosed: ringClosed)
                if let defect { throw fail(defect) }
                if command == moveTo {
                    ringClosed = false
                    parts.append([])
                }
                for _ in 0..<count {
                    x &+= zigzag(geometry[index])
                    y &+= zigzag(geometry[index + 1])
                    index += 2
                    parts[parts.count - 1].append((x, y))
                }
            case closePath:
                guard type == .polygon || type == .unknown else { throw fail("a ClosePath in a \(typeName(type))") }
                guard count == 1 else { throw fail("a ClosePath with a count of \(count)") }
                guard !ringClosed, let ring = parts.last, ring.count >= 3 else { throw fail("a ClosePath after fewer than 3 points") }
                ringClosed = true
            default:
                throw fail("an unknown command \(command)")
            }
        }
        if type == .polygon, !parts.isEmpty, !ringClosed {
            throw VectorTile.DecodingError("a ring that is not closed", offset: geometry.count)
        }
        if type == .lineString, let last = parts.last, last.count < 2 {
            throw VectorTile.DecodingError("a line of one point", offset: geometry.count)
        }
        return parts
    }

    /// What is wrong with a MoveTo of `count` points here, nil when it fits the type.
    private static func moveToDefect(count: Int, type: VectorTile.GeometryType, parts: [[(x: Int64, y: Int64)]],
                                     ringClosed: Bool) -> String? {
        switch type {
        case .point: parts.isEmpty ? nil : "a second MoveTo in a point geometry"
        case .lineString:
            count != 1 ? "a MoveTo of \(count) points in a line geometry" : (parts.last.map { $0.count < 2 } ?? false) ? "a line of one point" : nil
        case .polygon:
            count != 1 ? "a MoveTo of \(count) points in a polygon geometry" : !(parts.isEmpty || ringClosed) ? "a ring that is not closed" : nil
        case .unknown: nil
        }
    }

    /// What is wrong with a LineTo of `count` points here, nil when it fits the type.
    private static func lineToDefect(count: Int, type: VectorTile.GeometryType, parts: [[(x: Int64, y: Int64)]],
                                     ringClosed: Bool) -> String? {
        guard let current = parts.last else { return "a LineTo before any MoveTo" }
        switch type {
        case .point: return "a LineTo in a point geometry"
        case .polygon:
            guard !ringClosed, current.count == 1 else { return "a LineTo that does not follow the ring's MoveTo" }
            return count >= 2 ? nil : "a ring's LineTo of \(count) point"
        case .lineString, .unknown: return nil
        }
    }

    /// Twice the signed area of a ring in tile coordinates (y down): positive for an exterior
    /// ring of a version 2 layer (clockwise on screen).
    static func doubledArea(_ ring: [(x: Int64, y: Int64)]) -> Double {
        var sum = 0.0
        for index in ring.indices {
            let a = ring[index], b = ring[(index + 1) % ring.count]
            sum += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
        }
        return sum
    }

    static func zigzag(_ value: UInt32) -> Int64 {
        Int64(value >> 1) ^ -Int64(value & 1)
    }

    private static func name(_ command: UInt32) -> String {
        command == moveTo ? "MoveTo" : "LineTo"
    }

    private static func typeName(_ type: VectorTile.GeometryType) -> String {
        switch type {
        case .unknown: "geometry of unknown type"
        case .point: "point geometry"
        case .lineString: "line geometry"
        case .polygon: "polygon geometry"
        }
    }
}
