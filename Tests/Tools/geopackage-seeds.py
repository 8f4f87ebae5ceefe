"""Writes small GeoPackages for the gpkg fuzz target's seed corpus, as other tools lay them out.

    python3 geopackage-seeds.py SOURCE.mbtiles|- CORPUS_FOLDER

Zooms 0-1 of SOURCE (PNG tiles; with -, five 16-byte tiles that begin with PNG's signature) go
into three files: a web quad tree in EPSG:3857
(quad.gpkg), the same with zoom levels numbered from 2 (shifted.gpkg, as GDAL numbers a
matrix set wider than the world), and EPSG:4326 with a 2x1 world (geographic.gpkg). Only the
python standard library: the layout is written from the GeoPackage 1.3 spec, not by TileSync.
"""
import os
import sqlite3
import sys

HALF_WORLD = 20037508.342789244

CORE = """
PRAGMA page_size = 1024;
PRAGMA application_id = 1196444487;
PRAGMA user_version = 10300;
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY,
  organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL,
  description TEXT);
CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT NOT NULL,
  identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME,
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);
CREATE TABLE gpkg_tile_matrix_set (table_name TEXT PRIMARY KEY, srs_id INTEGER NOT NULL,
  min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL);
CREATE TABLE gpkg_tile_matrix (table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL,
  matrix_width INTEGER NOT NULL, matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL,
  tile_height INTEGER NOT NULL, pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL,
  PRIMARY KEY (table_name, zoom_level));
CREATE TABLE tiles (id INTEGER PRIMARY KEY AUTOINCREMENT, zoom_level INTEGER NOT NULL,
  tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL,
  UNIQUE (zoom_level, tile_column, tile_row));
INSERT INTO gpkg_spatial_ref_sys VALUES
  ('WGS 84', 4326, 'EPSG', 4326, 'GEOGCS["WGS 84"]', NULL),
  ('WGS 84 / Pseudo-Mercator', 3857, 'EPSG', 3857, 'PROJCS["WGS 84 / Pseudo-Mercator"]', NULL),
  ('Undefined cartesian', -1, 'NONE', -1, 'undefined', NULL),
  ('Undefined geographic', 0, 'NONE', 0, 'undefined', NULL);
"""


def write(path, tiles, shift, srs):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(CORE)
    if srs == 3857:
        extent, columns = (-HALF_WORLD, -HALF_WORLD, HALF_WORLD, HALF_WORLD), 1
    else:
        extent, columns = (-180.0, -90.0, 180.0, 90.0), 2
    db.execute("INSERT INTO gpkg_contents VALUES ('tiles', 'tiles', 'tiles', '', '2026-01-01T00:00:00.000Z', ?, ?, ?, ?, ?)",
               extent + (srs,))
    db.execute("INSERT INTO gpkg_tile_matrix_set VALUES ('tiles', ?, ?, ?, ?, ?)", (srs,) + extent)
    for z in (0, 1):
        width, height = columns << z, 1 << z
        db.execute("INSERT INTO gpkg_tile_matrix VALUES ('tiles', ?, ?, ?, 256, 256, ?, ?)",
                   (z + shift, width, height, (extent[2] - extent[0]) / width / 256, (extent[3] - extent[1]) / height / 256))
    for z, x, tms, data in tiles:
        if x < columns << z:
            db.execute("INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)",
                       (z + shift, x, (1 << z) - 1 - tms, data))
    db.commit()
    db.execute("VACUUM")
    db.close()


def main():
    source, corpus = sys.argv[1], sys.argv[2]
    if source == "-":
        signature = b"\x89PNG\r\n\x1a\n"
        tiles = [(z, x, y, signature + bytes([z, x, y]) * 2 + b"\x00\x00") for z, x, y in
                 ((0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1))]
    else:
        tiles = sqlite3.connect("file:%s?mode=ro" % source, uri=True).execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE zoom_level <= 1").fetchall()
    write(os.path.join(corpus, "quad.gpkg"), tiles, 0, 3857)
    write(os.path.join(corpus, "shifted.gpkg"), tiles, 2, 3857)
    write(os.path.join(corpus, "geographic.gpkg"), tiles, 0, 4326)


main()
