#!/usr/bin/env bash
# Region cover benchmark (issue 49), release build, median of RUNS, peer in the same run:
# detailed outlines written by Benchmarks/region-outline.py (coastline-like MultiPolygons of
# 10^4, 10^5 and 10^6 vertices with 78 holes, and a 100,000-point route), covered by
# `tilesync tile --region` at zoom 14 alone and at zooms 0-14, against supermercado's
# `burn 14` (rasterio; pip install supermercado) at zoom 14. Wall time, tiles/s of tiles
# counted, MB/s of GeoJSON read, peak RSS.
#
#   Benchmarks/region-benchmark.sh           (RUNS=3; supermercado is installed by pip if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
python3 -c "import supermercado" 2>/dev/null || python3 -m pip install --quiet supermercado
. Benchmarks/release-build.sh
work=$(mktemp -d /tmp/tilesync-region-bench.XXXXXX)
results=$work/results
mkdir -p "$results"
trap 'rm -rf "$work"' EXIT
. Benchmarks/measure.sh
cd "$work"
for n in 10000 100000 1000000; do python3 "$repo/Benchmarks/region-outline.py" polygon $n poly$n.geojson; done
python3 "$repo/Benchmarks/region-outline.py" route 100000 route.geojson

printf "%-34s %-44s %s\n" job tilesync supermercado
for n in 10000 100000 1000000; do
  file=poly$n.geojson bytes=$(stat -c %s poly$n.geojson)
  for run in $(seq "$runs"); do
    measure ours14-$n "$bin/tilesync" tile --region $file --min-zoom 14 --max-zoom 14
    measure ours-$n "$bin/tilesync" tile --region $file --min-zoom 0 --max-zoom 14
    measure peer-$n sh -c "supermercado burn 14 < $file > peer$n.txt 2>/dev/null"
  done
  tiles14=$("$bin/tilesync" tile --region $file --min-zoom 14 --max-zoom 14 --json | python3 -c "import json,sys; print(json.load(sys.stdin)['tiles'])")
  tiles=$("$bin/tilesync" tile --region $file --min-zoom 0 --max-zoom 14 --json | python3 -c "import json,sys; print(json.load(sys.stdin)['tiles'])")
  printf "%-34s %-44s %s\n" "$n vertices, zoom 14 ($tiles14 tiles)" "$(report ours14-$n "$tiles14" "$bytes")" "$(report peer-$n "$(wc -l < peer$n.txt)" "$bytes") ($(wc -l < peer$n.txt) tiles)"
  printf "%-34s %-44s\n" "$n vertices, zooms 0-14 ($tiles tiles)" "$(report ours-$n "$tiles" "$bytes")"
done
bytes=$(stat -c %s route.geojson)
for run in $(seq "$runs"); do
  measure route "$bin/tilesync" tile --region route.geojson --buffer 500m --min-zoom 0 --max-zoom 14
done
tiles=$("$bin/tilesync" tile --region route.geojson --buffer 500m --min-zoom 0 --max-zoom 14 --json | python3 -c "import json,sys; print(json.load(sys.stdin)['tiles'])")
printf "%-34s %-44s\n" "route, 100,000 points, 500 m, z0-14" "$(report route "$tiles" "$bytes") ($tiles tiles)"
