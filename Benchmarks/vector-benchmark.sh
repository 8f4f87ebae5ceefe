#!/usr/bin/env bash
# Vector tile benchmark (issue 52), release build, median of RUNS, peers in the same run:
#  1. TILES real-shaped vector tiles made by tippecanoe from generated GeoJSON (5 layers of
#     points, lines and polygons, 10 attributes each, zoom 13 over a square of tiles), filtered to
#     2 layers with 3 attributes dropped: `tilesync convert --layer --exclude-field` against
#     `tile-join --layer --layer --exclude x3` (--no-tile-size-limit so it drops no tile); both
#     outputs decoded by python's mapbox-vector-tile on a sample must hold the same layers,
#     features and properties.
#  2. A filter that removes nothing (`--exclude-layer` of a layer no tile holds) against a plain
#     `convert` of the same store; again on the same tiles uncompressed (`--compress none`), where
#     no inflate is needed to read their layers.
#  3. `verify --deep` of the store (every tile decoded and checked).
# Wall time, tiles/s, MB/s of tiles read, peak RSS.
#
#   Benchmarks/vector-benchmark.sh [TILES]     (default 100000; RUNS=3; TIPPECANOE=folder of tippecanoe and tile-join)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-100000}
runs=${RUNS:-3}
tippecanoe=${TIPPECANOE:-}
work=${BENCH_WORK:-/tmp/tilesync-vector-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-vector-bench.img}
path_tools=${tippecanoe:+$tippecanoe:}$PATH
PATH=$path_tools command -v tile-join >/dev/null || { echo "needs tippecanoe's tile-join (build github:felt/tippecanoe; TIPPECANOE=its folder)" >&2; exit 1; }
python3 -c "import mapbox_vector_tile" 2>/dev/null || python3 -m pip install --quiet mapbox-vector-tile
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
loop_work_mount $(( tiles * 40000 + (2 << 30) ))
results=$(mktemp -d /tmp/tilesync-vector-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"
export PATH=$path_tools

side=$(python3 -c "import math; print(math.isqrt($tiles - 1) + 1)")
echo "generating $side x $side tiles at zoom 13 with tippecanoe ..." >&2
python3 - "$side" > features.geojsonseq <<'PY'
import json, math, random, sys
side = int(sys.argv[1]); random.seed(52)
def lon(x): return x / 8192 * 360 - 180
def lat(y): return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / 8192))))
x0, y0 = 4000, 2600
def props(layer, i):
    return {"name": "%s %d" % (layer, i), "kind": random.choice(["a", "b", "c", "d"]), "rank": random.randint(0, 20),
            "height": round(random.uniform(0, 300), 1), "ref": "R%05d" % random.randint(0, 99999), "oneway": random.random() < 0.3,
            "surface": random.choice(["paved", "gravel", "dirt"]), "lanes": random.randint(1, 6),
            "note": "x" * random.randint(5, 40), "id2": i}
for tx in range(side):
    for ty in range(side):
        cx, cy = x0 + tx + 0.5, y0 + ty + 0.5
        feats = [("pois", "Point", [lon(cx + 0.2), lat(cy + 0.1)]), ("places", "Point", [lon(cx - 0.3), lat(cy - 0.2)]),
                 ("roads", "LineString", [[lon(cx - 0.45), lat(cy - 0.4)], [lon(cx), lat(cy + 0.1)], [lon(cx + 0.45), lat(cy + 0.4)]]),
                 ("water", "Polygon", [[[lon(cx - 0.4), lat(cy - 0.4)], [lon(cx - 0.1), lat(cy - 0.4)], [lon(cx - 0.1), lat(cy - 0.1)], [lon(cx - 0.4), lat(cy - 0.1)], [lon(cx - 0.4), lat(cy - 0.4)]]]),
                 ("buildings", "Polygon", [[[lon(cx + 0.1), lat(cy + 0.1)], [lon(cx + 0.3), lat(cy + 0.1)], [lon(cx + 0.3), lat(cy + 0.3)], [lon(cx + 0.1), lat(cy + 0.3)], [lon(cx + 0.1), lat(cy + 0.1)]]])]
        for layer, kind, coords in feats:
            print(json.dumps({"type": "Feature", "tippecanoe": {"layer": layer}, "properties": props(layer, tx * side + ty),
                              "geometry": {"type": kind, "coordinates": coords}}))
PY
tippecanoe --quiet --force --output=source.mbtiles --minimum-zoom=13 --maximum-zoom=13 --read-parallel \
  --no-tile-size-limit --no-feature-limit features.geojsonseq
rm features.geojsonseq
stats=$(sqlite3 source.mbtiles "SELECT count(*), sum(length(tile_data)) FROM tiles")
count=${stats%|*}; bytes=${stats#*|}
"$bin/tilesync" convert source.mbtiles raw.mbtiles --compress none --quiet
raw_bytes=$(sqlite3 raw.mbtiles "SELECT sum(length(tile_data)) FROM tiles")

for run in $(seq "$runs"); do
  rm -f ts.mbtiles tj.mbtiles tj2.mbtiles same.mbtiles plain.mbtiles
  measure filter "$bin/tilesync" convert source.mbtiles ts.mbtiles --layer roads,buildings --exclude-field note,ref,surface --quiet
  measure tile-join tile-join --quiet --force --no-tile-size-limit --output=tj.mbtiles --layer=roads --layer=buildings \
    --exclude=note --exclude=ref --exclude=surface source.mbtiles
  measure tile-join-nostats tile-join --quiet --force --no-tile-size-limit --no-tile-stats --output=tj2.mbtiles --layer=roads \
    --layer=buildings --exclude=note --exclude=ref --exclude=surface source.mbtiles
  measure nothing "$bin/tilesync" convert source.mbtiles same.mbtiles --exclude-layer rivers --quiet
  measure plain "$bin/tilesync" convert source.mbtiles plain.mbtiles --quiet
  measure deep "$bin/tilesync" verify source.mbtiles --deep --quiet
  rm -f same-raw.mbtiles plain-raw.mbtiles
  measure nothing-raw "$bin/tilesync" convert raw.mbtiles same-raw.mbtiles --exclude-layer rivers --quiet
  measure plain-raw "$bin/tilesync" convert raw.mbtiles plain-raw.mbtiles --quiet
done
"$bin/tilesync" verify raw.mbtiles same-raw.mbtiles --quiet
"$bin/tilesync" verify source.mbtiles same.mbtiles --quiet
python3 - ts.mbtiles tj.mbtiles <<'PY'
import gzip, sqlite3, sys, mapbox_vector_tile as m
def rows(path):
    return {(z, x, y): d for z, x, y, d in sqlite3.connect(path).execute(
        "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY random() LIMIT 2000" if path == sys.argv[1] else
        "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
ours, theirs = rows(sys.argv[1]), rows(sys.argv[2])
def content(data):
    tile = m.decode(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    return {name: sorted((f["geometry"]["type"], str(f["geometry"]["coordinates"]), sorted(f["properties"].items()))
                         for f in layer["features"]) for name, layer in tile.items()}
for key, data in ours.items():
    assert key in theirs, key
    assert content(data) == content(theirs[key]), key
print("same layers, features and properties as tile-join on %d sampled tiles" % len(ours), file=sys.stderr)
PY
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
echo
echo "vector benchmark: $count tiles ($(( bytes / 1000000 )) MB, 5 layers, 10 attributes) by tippecanoe; median of $runs runs; $fs"
printf "%-62s %s\n" "tilesync convert --layer roads,buildings --exclude-field x3" "$(report filter "$count" "$bytes")"
printf "%-62s %s\n" "tile-join -l roads -l buildings -x note -x ref -x surface" "$(report tile-join "$count" "$bytes")"
printf "%-62s %s\n" "  the same with --no-tile-stats" "$(report tile-join-nostats "$count" "$bytes")"
printf "%-62s %s\n" "tilesync convert --exclude-layer rivers (removes nothing)" "$(report nothing "$count" "$bytes")"
printf "%-62s %s\n" "tilesync convert (plain)" "$(report plain "$count" "$bytes")"
printf "%-62s %s\n" "tilesync verify --deep" "$(report deep "$count" "$bytes")"
printf "%-62s %s\n" "the tiles uncompressed: --exclude-layer rivers" "$(report nothing-raw "$count" "$raw_bytes")"
printf "%-62s %s\n" "the tiles uncompressed: plain convert" "$(report plain-raw "$count" "$raw_bytes")"
awk -v a="$(median filter)" -v b="$(median tile-join)" -v c="$(median nothing)" -v d="$(median plain)" -v e="$(median tile-join-nostats)" \
    -v f="$(median nothing-raw)" -v g="$(median plain-raw)" 'BEGIN {
  printf "filter vs tile-join: %.2fx (%.2fx without its tile stats); a filter that removes nothing / plain convert: %.2f (uncompressed tiles: %.2f)\n",
         b / a, e / a, c / (d > 0 ? d : 0.01), f / (g > 0 ? g : 0.01) }'
rm -rf "$results"
