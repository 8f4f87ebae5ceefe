import Foundation

/// The layer description tables of the OGC GeoPackage vector tiles extension
/// (`gpkgext_vt_layers`, `gpkgext_vt_fields`), kept in step with the metadata's `vector_layers`.
enum GeoPackageVectorLayers {
    /// Writes the table's layers and fields from the metadata's `json` `vector_layers`, and the
    /// extension rows of a Mapbox-vector-tile table.
    static func write(_ metadata: TileMetadata, table: String, connection: SQLiteConnection) throws {
        try connection.execute(GeoPackageSchema.vectorTileTables)
        try remove(table: table, connection: connection)
        try GeoPackageContentsUpdate.register(GeoPackageSchema.vectorTilesExtension, table: table, column: nil, connection: connection)
        try GeoPackageContentsUpdate.register(GeoPackageSchema.mapboxVectorTilesExtension, table: table, column: "tile_data", connection: connection)
        for name in ["gpkgext_vt_layers", "gpkgext_vt_fields"] {
            try GeoPackageContentsUpdate.register(GeoPackageSchema.vectorTilesExtension, table: name, column: nil, connection: connection)
        }
        guard let json = metadata["json"], let document = try? JSONParser.parse(Array(json.utf8)),
              case .array(let layers)? = document["vector_layers"] else { return }
        let layer = try connection.prepare("INSERT OR IGNORE INTO gpkgext_vt_layers (table_name, name, description, minzoom, maxzoom) VALUES (?1, ?2, ?3, ?4, ?5)")
        let field = try connection.prepare("INSERT OR IGNORE INTO gpkgext_vt_fields (layer_id, name, type) VALUES (?3, ?1, ?2)")
        for entry in layers {
            guard let id = entry["id"]?.string else { continue }
            try layer.bind(table, at: 1)
            try layer.bind(id, at: 2)
            try layer.bind(entry["description"]?.string, at: 3)
            try layer.bind(entry["minzoom"]?.int, at: 4)
            try layer.bind(entry["maxzoom"]?.int, at: 5)
            try layer.run()
            guard connection.changes > 0, case .object(let fields)? = entry["fields"],
                  let layerID = (try connection.rows("SELECT last_insert_rowid()").first?.first ?? nil).flatMap({ Int($0) }) else { continue }
            var names: [(String, String)] = []
            for member in fields {
                let type = member.value.string.flatMap { text in ["String", "Number", "Boolean"].first { $0.lowercased() == text.lowercased() } }
                names.append((member.key, type ?? "String"))
            }
            for (name, type) in names {
                try field.bind(name, at: 1)
                try field.bind(type, at: 2)
                try field.bind(layerID, at: 3)
                try field.run()
            }
        }
    }

    /// The `vector_layers` JSON of a table that has layer rows, nil when it has none.
    static func read(table: String, connection: SQLiteConnection, catalog: GeoPackageCatalog) throws -> String? {
        guard catalog.objectNames.contains("gpkgext_vt_layers") else { return nil }
        let hasFields = catalog.objectNames.contains("gpkgext_vt_fields")
        let layers = try connection.prepare("SELECT id, name, description, minzoom, maxzoom FROM gpkgext_vt_layers WHERE table_name = ?1 ORDER BY id")
        try layers.bind(table, at: 1)
        let fields = hasFields ? try connection.prepare("SELECT name, type FROM gpkgext_vt_fields WHERE layer_id = ?1 ORDER BY id") : nil
        var entries: [JSONValue] = []
        while try layers.step() {
            guard let name = layers.text(at: 1) else { continue }
            var members: [(key: String, value: JSONValue)] = [("id", .string(name))]
            if let description = layers.text(at: 2) { members.append(("description", .string(description))) }
            if layers.isInteger(at: 3) { members.append(("minzoom", .int(layers.int(at: 3)))) }
            if layers.isInteger(at: 4) { members.append(("maxzoom", .int(layers.int(at: 4)))) }
            var fieldMembers: [(key: String, value: JSONValue)] = []
            if let fields {
                fields.reset()
                try fields.bind(layers.int(at: 0), at: 1)
                while try fields.step() {
                    if let field = fields.text(at: 0) { fieldMembers.append((field, .string(fields.text(at: 1) ?? "String"))) }
                }
            }
            members.append(("fields", .object(fieldMembers)))
            entries.append(.object(members))
        }
        guard !entries.isEmpty else { return nil }
        return JSONWriter.text(.object([("vector_layers", .array(entries))]))
    }

    /// Deletes the table's layer and field rows.
    static func remove(table: String, connection: SQLiteConnection) throws {
        let names = Set(try connection.rows("SELECT lower(name) FROM sqlite_master WHERE type = 'table'").compactMap { $0.first ?? nil })
        guard names.contains("gpkgext_vt_layers") else { return }
        if names.contains("gpkgext_vt_fields") {
            let fields = try connection.prepare("DELETE FROM gpkgext_vt_fields WHERE layer_id IN (SELECT id FROM gpkgext_vt_layers WHERE lower(table_name) = lower(?1))")
            try fields.bind(table, at: 1)
            try fields.run()
        }
        let layers = try connection.prepare("DELETE FROM gpkgext_vt_layers WHERE lower(table_name) = lower(?1)")
        try layers.bind(table, at: 1)
        try layers.run()
    }
}
