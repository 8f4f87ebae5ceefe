"""An independent cover of a GeoJSON region, for the region tests (needs shapely).

    region-cover-oracle.py polygons FILE ZOOMS           -> z/x/y of every tile whose square shares area with the polygons
    region-cover-oracle.py corridor FILE ZOOMS METRES    -> z/x/y DISTANCE_M for tiles within 1.2 x METRES of the lines

ZOOMS is one zoom or a comma list; the lines of each zoom are sorted and come in the list's order.

Longitude/latitude are projected to Web Mercator (latitudes clamped to +-85.05112878) and edges are
straight there; distances are ground metres at the latitude of the nearest point of the line.
"""
import json, math, sys
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import nearest_points, unary_union

MAX_LAT = math.degrees(math.atan(math.sinh(math.pi)))

def project(lon, lat, scale):
    lat = max(-MAX_LAT, min(MAX_LAT, lat))
    x = (lon + 180.0) / 360.0 * scale
    y = (1.0 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2.0 * scale
    return x, y

def geometries(doc):
    kind = doc["type"]
    if kind == "FeatureCollection":
        for feature in doc["features"]:
            yield from geometries(feature)
    elif kind == "Feature":
        if doc["geometry"] is not None:
            yield from geometries(doc["geometry"])
    elif kind == "GeometryCollection":
        for member in doc["geometries"]:
            yield from geometries(member)
    else:
        yield doc

def cover(mode, doc, zoom):
    scale = 2 ** zoom
    out = []
    if mode == "polygons":
        shapes = []
        for g in geometries(doc):
            polys = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]
            for rings in polys:
                projected = [[project(lon, lat, scale) for lon, lat, *_ in ring] for ring in rings]
                shapes.append(Polygon(projected[0], projected[1:]))
        for shape in shapes:
            minx, miny, maxx, maxy = shape.bounds
            for x in range(max(0, int(math.floor(minx))), min(scale - 1, int(math.floor(maxx))) + 1):
                for y in range(max(0, int(math.floor(miny))), min(scale - 1, int(math.floor(maxy))) + 1):
                    if shape.intersection(box(x, y, x + 1, y + 1)).area > 1e-9:
                        out.append("%d/%d/%d" % (zoom, x, y))
    else:
        metres = float(sys.argv[4])
        lines = []
        for g in geometries(doc):
            parts = [g["coordinates"]] if g["type"] == "LineString" else g["coordinates"]
            for part in parts:
                lines.append(LineString([project(lon, lat, scale) for lon, lat, *_ in part]))
        route = unary_union(lines)
        tile_metres_equator = 2 * math.pi * 6378137.0 / scale
        minx, miny, maxx, maxy = route.bounds
        reach = 1.2 * metres / (tile_metres_equator * math.cos(math.radians(70)))
        for x in range(max(0, int(minx - reach)), min(scale - 1, int(maxx + reach)) + 1):
            for y in range(max(0, int(miny - reach)), min(scale - 1, int(maxy + reach)) + 1):
                square = box(x, y, x + 1, y + 1)
                on_route = nearest_points(route, square)[0]
                lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * on_route.y / scale))))
                distance = route.distance(square) * tile_metres_equator * math.cos(math.radians(lat))
                if distance <= 1.2 * metres:
                    out.append("%d/%d/%d %.3f" % (zoom, x, y, distance))
    return sorted(set(out))

def main():
    mode, path = sys.argv[1], sys.argv[2]
    doc = json.load(open(path))
    for zoom in (int(z) for z in sys.argv[3].split(",")):
        for line in cover(mode, doc, zoom):
            print(line)

main()
