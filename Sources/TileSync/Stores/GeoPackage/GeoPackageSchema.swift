/// The SQL of the tables TileSync creates in a GeoPackage (OGC 12-128r18, GeoPackage 1.3), each
/// only when missing, so other tables of an existing file stay as they are.
enum GeoPackageSchema {
    /// The core tables, the tile matrix tables, extensions and the metadata extension's tables.
    static let coreTables = """
        CREATE TABLE IF NOT EXISTS gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, \
        organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
        CREATE TABLE IF NOT EXISTS gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, \
        identifier TEXT UNIQUE, description TEXT DEFAULT '', \
        last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), \
        min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER, \
        CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE IF NOT EXISTS gpkg_tile_matrix_set (table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL, \
        min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL, \
        CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name), \
        CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        CREATE TABLE IF NOT EXISTS gpkg_tile_matrix (table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, \
        matrix_width INTEGER NOT NULL, matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height INTEGER NOT NULL, \
        pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL, CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level), \
        CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name));
        CREATE TABLE IF NOT EXISTS gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, \
        definition TEXT NOT NULL, scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
        CREATE TABLE IF NOT EXISTS gpkg_metadata (id INTEGER CONSTRAINT m_pk PRIMARY KEY ASC NOT NULL, \
        md_scope TEXT NOT NULL DEFAULT 'dataset', md_standard_uri TEXT NOT NULL, mime_type TEXT NOT NULL DEFAULT 'text/xml', \
        metadata TEXT NOT NULL DEFAULT '');
        CREATE TABLE IF NOT EXISTS gpkg_metadata_reference (reference_scope TEXT NOT NULL, table_name TEXT, column_name TEXT, \
        row_id_value INTEGER, timestamp DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), \
        md_file_id INTEGER NOT NULL, md_parent_id INTEGER, \
        CONSTRAINT crmr_mfi_fk FOREIGN KEY (md_file_id) REFERENCES gpkg_metadata(id), \
        CONSTRAINT crmr_mpi_fk FOREIGN KEY (md_parent_id) REFERENCES gpkg_metadata(id));
        """

    /// The tables of the OGC vector tiles extension: the layers of each tile table and their fields.
    static let vectorTileTables = """
        CREATE TABLE IF NOT EXISTS gpkgext_vt_layers (id INTEGER PRIMARY KEY AUTOINCREMENT, table_name TEXT NOT NULL, \
        name TEXT NOT NULL, description TEXT, minzoom INTEGER, maxzoom INTEGER, attributes_table_name TEXT, \
        CONSTRAINT fk_gvl_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name), UNIQUE (table_name, name));
        CREATE TABLE IF NOT EXISTS gpkgext_vt_fields (id INTEGER PRIMARY KEY AUTOINCREMENT, layer_id INTEGER NOT NULL, \
        name TEXT NOT NULL, type TEXT NOT NULL, \
        CONSTRAINT fk_gvf_li FOREIGN KEY (layer_id) REFERENCES gpkgext_vt_layers(id), UNIQUE (layer_id, name));
        """

    /// A tile pyramid user data table as the spec defines it.
    static func tileTable(_ name: String) -> String {
        """
        CREATE TABLE \(GeoPackageAddress.quoted(name)) (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL, \
        tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL, \
        UNIQUE (zoom_level, tile_column, tile_row))
        """
    }

    /// `gpkg_extensions` definitions: (extension name, definition URI).
    static let metadataExtension = ("gpkg_metadata", "http://www.geopackage.org/spec/#extension_metadata")
    static let webPExtension = ("gpkg_webp", "http://www.geopackage.org/spec/#extension_tiles_webp")
    static let vectorTilesExtension = ("im_vector_tiles", "https://docs.ogc.org/per/18-074.html#VectorTilesExtensionClause")
    static let mapboxVectorTilesExtension = ("im_vector_tiles_mapbox", "https://docs.ogc.org/per/18-074.html#MapboxVectorTilesExtensionClause")
}
