"""Writes a detailed GeoJSON region for the region-cover benchmark and tests.

    region-outline.py polygon VERTICES FILE   -> a MultiPolygon of about VERTICES positions: two
        country-sized parts with coastline-like outlines (radial noise at many scales) and holes
    region-outline.py route POINTS FILE       -> a LineString of POINTS positions, a winding route
        across about 12 degrees

The shapes are made from a fixed seed, so every run writes the same file.
"""
import json, math, random, sys

def wiggly_ring(cx, cy, radius, count, rng, roughness=0.25, clockwise=False):
    waves = [(rng.uniform(0, 2 * math.pi), k, roughness / (k ** 0.7)) for k in range(3, 400, 7)]
    ring = []
    for i in range(count):
        t = 2 * math.pi * i / count
        r = 1.0
        for phase, k, amplitude in waves:
            r += amplitude * math.sin(k * t + phase) / 3
        r = max(0.75, r) * radius
        ring.append([round(cx + r * math.cos(t), 7), round(cy + 0.7 * r * math.sin(t), 7)])
    if clockwise:
        ring.reverse()
    ring.append(ring[0])
    return ring

def polygon(vertices, rng):
    parts = []
    for cx, cy, radius in [(10.0, 48.0, 5.0), (24.0, 44.0, 3.0)]:
        share = vertices // 2
        holes = []
        hole_count = 39
        hole_vertices = share // 4 // hole_count
        for h in range(hole_count):
            angle = 2 * math.pi * h / hole_count
            distance = radius * (0.3 + 0.15 * (h % 3))
            holes.append(wiggly_ring(cx + distance * math.cos(angle), cy + 0.7 * distance * math.sin(angle),
                                     radius * 0.03, max(8, hole_vertices), rng, roughness=0.1, clockwise=True))
        outer = wiggly_ring(cx, cy, radius, share - hole_count * max(8, hole_vertices), rng)
        parts.append([outer] + holes)
    return {"type": "MultiPolygon", "coordinates": parts}

def route(points, rng):
    line, lon, lat, heading = [], 2.0, 44.0, 0.3
    step = 12.0 / points
    for _ in range(points):
        heading += rng.uniform(-0.004, 0.004)
        lon += step * math.cos(heading) * 1.5
        lat += step * math.sin(heading) * 0.6
        line.append([round(lon, 7), round(lat, 7)])
    return {"type": "LineString", "coordinates": line}

def main():
    kind, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rng = random.Random(7)
    geometry = polygon(count, rng) if kind == "polygon" else route(count, rng)
    with open(path, "w") as out:
        json.dump({"type": "Feature", "properties": {"name": kind}, "geometry": geometry}, out)

if __name__ == "__main__":
    main()
