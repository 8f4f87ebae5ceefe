import Foundation

/// A tile table's TileSync metadata (MBTiles-style keys and values) in a GeoPackage: a
/// `gpkg_metadata` row (the metadata extension) holding the keys as a JSON object, referenced
/// from `gpkg_metadata_reference` for the table. What the spec has a place of its own for is
/// also written there: `name` as the identifier and `description` in `gpkg_contents`, `bounds`
/// as its extent, the zooms as matrices. A table TileSync did not write gets its metadata from
/// those places.
enum GeoPackageMetadata {
    /// `md_standard_uri` of the rows TileSync writes: the keys are those of MBTiles metadata.
    static let standardURI = "https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md#metadata"

    /// The metadata stored for the table, nil when it has no row of ours.
    /// - Throws: `.invalidMetadata` naming the row when it is not a JSON object.
    static func stored(table: String, connection: SQLiteConnection, catalog: GeoPackageCatalog, store: String) throws -> TileMetadata? {
        guard catalog.objectNames.contains("gpkg_metadata"), catalog.objectNames.contains("gpkg_metadata_reference") else { return nil }
        let query = try connection.prepare("""
            SELECT m.id, m.metadata FROM gpkg_metadata m JOIN gpkg_metadata_reference r ON r.md_file_id = m.id \
            WHERE r.reference_scope = 'table' AND r.table_name = ?1 AND m.md_standard_uri = ?2 AND m.mime_type = 'application/json' \
            ORDER BY m.id DESC LIMIT 1
            """)
        try query.bind(table, at: 1)
        try query.bind(standardURI, at: 2)
        guard try query.step() else { return nil }
        let item = "gpkg_metadata row \(query.int(at: 0))"
        do {
            guard case .object(let members) = try JSONParser.parse(Array((query.text(at: 1) ?? "").utf8), source: item) else {
                throw TileStoreError(.invalidMetadata, store: store, item: item, message: "is not a JSON object")
            }
            return TileMetadata(members.map { member in
                switch member.value {
                case .string(let text): TileMetadata.Entry(key: member.key, value: text)
                case .null: TileMetadata.Entry(key: member.key, value: nil)
                default: TileMetadata.Entry(key: member.key, value: JSONWriter.text(member.value))
                }
            })
        } catch let error as JSONError {
            throw TileStoreError(.invalidMetadata, store: store, item: item, message: "is not valid JSON: \(error)")
        }
    }

    /// Replaces the table's metadata row (and registers the metadata extension).
    static func write(_ metadata: TileMetadata, table: String, connection: SQLiteConnection) throws {
        try remove(table: table, connection: connection)
        let object = JSONValue.object(metadata.entries.filter { !TileTreeOptions.metadataKeys.contains($0.key) }.map { entry in
            (key: entry.key, value: entry.value.map(JSONValue.string) ?? .null)
        })
        let insert = try connection.prepare("INSERT INTO gpkg_metadata (md_scope, md_standard_uri, mime_type, metadata) VALUES ('dataset', ?1, 'application/json', ?2)")
        try insert.bind(standardURI, at: 1)
        try insert.bind(JSONWriter.text(object), at: 2)
        try insert.run()
        let reference = try connection.prepare("""
            INSERT INTO gpkg_metadata_reference (reference_scope, table_name, md_file_id) VALUES ('table', ?1, last_insert_rowid())
            """)
        try reference.bind(table, at: 1)
        try reference.run()
        for name in ["gpkg_metadata", "gpkg_metadata_reference"] {
            try GeoPackageContentsUpdate.register(GeoPackageSchema.metadataExtension, table: name, column: nil, connection: connection)
        }
    }

    /// Deletes the table's metadata rows written by TileSync (others' rows stay).
    static func remove(table: String, connection: SQLiteConnection) throws {
        let names = Set(try connection.rows("SELECT lower(name) FROM sqlite_master WHERE type = 'table'").compactMap { $0.first ?? nil })
        guard names.contains("gpkg_metadata"), names.contains("gpkg_metadata_reference") else { return }
        let ours = "SELECT m.id FROM gpkg_metadata m JOIN gpkg_metadata_reference r ON r.md_file_id = m.id "
            + "WHERE r.reference_scope = 'table' AND lower(r.table_name) = lower(?1) AND m.md_standard_uri = ?2"
        for sql in ["DELETE FROM gpkg_metadata_reference WHERE md_file_id IN (\(ours)) AND lower(table_name) = lower(?1)",
                    "DELETE FROM gpkg_metadata WHERE id IN (SELECT id FROM gpkg_metadata WHERE md_standard_uri = ?2 AND ?1 IS NOT NULL "
                        + "AND id NOT IN (SELECT md_file_id FROM gpkg_metadata_reference))"] {
            let statement = try connection.prepare(sql)
            try statement.bind(table, at: 1)
            try statement.bind(standardURI, at: 2)
            try statement.run()
        }
    }
}
