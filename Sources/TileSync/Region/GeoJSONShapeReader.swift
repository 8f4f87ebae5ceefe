import Foundation

/// Reads the polygons, lines and points of a GeoJSON document (RFC 7946): a bare geometry, a
/// Feature, a FeatureCollection or a GeometryCollection, nested up to `maxDepth`. Positions
/// must be longitude/latitude in range; rings must have four positions and be closed. Every
/// refusal names the file and the feature, geometry and ring (counted from 1).
enum GeoJSONShapeReader {
    /// GeometryCollections nested deeper than this are refused.
    static let maxDepth = 16

    /// - Throws: `RegionError`.
    static func read(_ data: Data, file: String) throws(RegionError) -> RegionShapes {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw RegionError(file: file, message: "is not JSON (\(error.description))")
        }
        var reader = Reader(file: file)
        try reader.readTop(document)
        guard !reader.shapes.isEmpty else {
            throw RegionError(file: file, message: "holds no Polygon, MultiPolygon, LineString or Point: the region is empty")
        }
        return reader.shapes
    }

    private struct Reader {
        let file: String
        var shapes = RegionShapes()

        init(file: String) {
            self.file = file
        }

        mutating func readTop(_ value: JSONValue) throws(RegionError) {
            guard case .object = value else {
                throw RegionError(file: file, message: "is not GeoJSON: the document is \(value.typeName), not an object")
            }
            guard case .string(let type) = value["type"] else {
                throw RegionError(file: file, message: "is not GeoJSON: the top level has no \"type\"")
            }
            switch type {
            case "FeatureCollection":
                guard case .array(let features) = value["features"] else {
                    throw RegionError(file: file, item: "FeatureCollection", message: "\"features\" is not an array")
                }
                guard !features.isEmpty else {
                    throw RegionError(file: file, item: "FeatureCollection", message: "has no features: the region is empty")
                }
                for (index, feature) in features.enumerated() {
                    try readFeature(feature, label: Self.featureLabel(feature, index: index, count: features.count))
                }
            case "Feature":
                try readFeature(value, label: Self.featureLabel(value, index: nil, count: 1))
            default:
                try readGeometry(value, label: "", depth: 0)
            }
        }

        static func featureLabel(_ feature: JSONValue, index: Int?, count: Int) -> String {
            var label = index.map { "feature \($0 + 1) of \(count)" } ?? "feature"
            let name: String? = switch feature["properties"]?["name"] ?? feature["id"] {
            case .string(let text): text
            case .number(let text): text
            default: nil
            }
            if let name { label += " (\"\(name.prefix(60))\")" }
            return label
        }

        mutating func readFeature(_ feature: JSONValue, label: String) throws(RegionError) {
            guard case .object = feature, case .string("Feature") = feature["type"] else {
                throw RegionError(file: file, item: label, message: "is not a GeoJSON Feature (no \"type\": \"Feature\")")
            }
            switch feature["geometry"] {
            case nil:
                throw RegionError(file: file, item: label, message: "has no \"geometry\"")
            case .null:
                return
            case let geometry?:
                try readGeometry(geometry, label: label, depth: 0)
            }
        }

        mutating func readGeometry(_ geometry: JSONValue, label: String, depth: Int) throws(RegionError) {
            guard case .string(let type) = geometry["type"] else {
                throw RegionError(file: file, item: label.isEmpty ? "geometry" : label, message: "is not a GeoJSON geometry (no \"type\")")
            }
            let item = label.isEmpty ? type : "\(label), \(type)"
            if type == "GeometryCollection" {
                guard depth < GeoJSONShapeReader.maxDepth else {
                    throw RegionError(file: file, item: item, message: "is nested deeper than \(GeoJSONShapeReader.maxDepth) levels")
                }
                guard case .array(let members) = geometry["geometries"] else {
                    throw RegionError(file: file, item: item, message: "\"geometries\" is not an array")
                }
                for (index, member) in members.enumerated() {
                    try readGeometry(member, label: "\(item) member \(index + 1)", depth: depth + 1)
                }
                return
            }
            guard let coordinates = geometry["coordinates"] else {
                throw RegionError(file: file, item: item, message: "has no \"coordinates\"")
            }
            switch type {
            case "Polygon":
                shapes.polygons.append(.init(label: item, rings: try polygon(coordinates, item: item)))
            case "MultiPolygon":
                try forEachMember(of: coordinates, item: item, named: "polygon") { (member, memberItem) throws(RegionError) in
                    shapes.polygons.append(.init(label: memberItem, rings: try polygon(member, item: memberItem)))
                }
            case "LineString":
                shapes.lines.append(.init(label: item, positions: try line(coordinates, item: item)))
            case "MultiLineString":
                try forEachMember(of: coordinates, item: item, named: "line") { (member, memberItem) throws(RegionError) in
                    shapes.lines.append(.init(label: memberItem, positions: try line(member, item: memberItem)))
                }
            case "Point":
                shapes.lines.append(.init(label: item, positions: [try position(coordinates, item: item)]))
            case "MultiPoint":
                try forEachMember(of: coordinates, item: item, named: "point") { (member, memberItem) throws(RegionError) in
                    shapes.lines.append(.init(label: memberItem, positions: [try position(member, item: memberItem)]))
                }
            default:
                throw RegionError(file: file, item: item, message: "is not a GeoJSON geometry type")
            }
        }

        /// Calls `body` with each member of a Multi* geometry's coordinates and its label (`ITEM polygon 2`).
        func forEachMember(of coordinates: JSONValue, item: String, named name: String,
                           _ body: (JSONValue, String) throws(RegionError) -> Void) throws(RegionError) {
            for (index, member) in try list(coordinates, item: item, of: name + "s").enumerated() {
                try body(member, "\(item) \(name) \(index + 1)")
            }
        }

        func list(_ value: JSONValue, item: String, of what: String) throws(RegionError) -> [JSONValue] {
            guard case .array(let members) = value else {
                throw RegionError(file: file, item: item, message: "\"coordinates\" must be an array of \(what), found \(value.typeName)")
            }
            return members
        }

        func polygon(_ value: JSONValue, item: String) throws(RegionError) -> [[RegionShapes.Position]] {
            let rings = try list(value, item: item, of: "rings")
            guard !rings.isEmpty else { throw RegionError(file: file, item: item, message: "has no rings") }
            var result: [[RegionShapes.Position]] = []
            for (index, ring) in rings.enumerated() {
                let ringItem = "\(item) ring \(index + 1)" + (index == 0 ? " (outer)" : " (hole)")
                let positions = try list(ring, item: ringItem, of: "positions").map { (value) throws(RegionError) in
                    try position(value, item: ringItem)
                }
                guard positions.count >= 4 else {
                    throw RegionError(file: file, item: ringItem, message: "has \(positions.count) positions; a ring needs at least 4, the first repeated last")
                }
                if let first = positions.first, let last = positions.last, first != last {
                    throw RegionError(file: file, item: ringItem, message: "is not closed: it starts at \(Self.text(first)) and ends at \(Self.text(last))")
                }
                result.append(positions)
            }
            return result
        }

        func line(_ value: JSONValue, item: String) throws(RegionError) -> [RegionShapes.Position] {
            let positions = try list(value, item: item, of: "positions").map { (value) throws(RegionError) in
                try position(value, item: item)
            }
            guard !positions.isEmpty else { throw RegionError(file: file, item: item, message: "has no positions") }
            return positions
        }

        func position(_ value: JSONValue, item: String) throws(RegionError) -> RegionShapes.Position {
            guard case .array(let numbers) = value, numbers.count >= 2 else {
                throw RegionError(file: file, item: item, message: "a position must be [longitude, latitude], found \(Self.snippet(value))")
            }
            guard let longitude = numbers[0].double, let latitude = numbers[1].double else {
                throw RegionError(file: file, item: item, message: "a position holds something other than numbers: \(Self.snippet(value))")
            }
            guard longitude.isFinite, (-180...180).contains(longitude) else {
                throw RegionError(file: file, item: item, message: "longitude \(longitude) is out of range (-180...180)")
            }
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw RegionError(file: file, item: item, message: "latitude \(latitude) is out of range (-90...90)")
            }
            return .init(longitude: longitude, latitude: latitude)
        }

        static func text(_ position: RegionShapes.Position) -> String {
            "[\(DegreeText.format(position.longitude)), \(DegreeText.format(position.latitude))]"
        }

        static func snippet(_ value: JSONValue) -> String {
            switch value {
            case .array(let members):
                "[" + members.prefix(3).map { member in
                    switch member {
                    case .number: member.double.map(DegreeText.format) ?? member.typeName
                    case .string(let text): "\"\(text.prefix(20))\""
                    default: member.typeName
                    }
                }.joined(separator: ", ") + (members.count > 3 ? ", ...]" : "]")
            default: value.typeName
            }
        }
    }
}
