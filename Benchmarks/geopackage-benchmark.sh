#!/usr/bin/env bash
# GeoPackage benchmark (issue 50), release build, median of RUNS, peers in the same run:
# TILES raster tiles (real PNG pictures, `tilesync-benchmark generate --kind picture`) in an
# MBTiles, then
#   tilesync convert MBTiles -> GeoPackage, GeoPackage -> MBTiles, and MBTiles -> MBTiles (the
#   goal: both GeoPackage directions within 1.2x of the MBTiles copy);
#   gdal_translate -of GPKG -co TILING_SCHEME=GoogleMapsCompatible of the same MBTiles, which
#   decodes and encodes every tile of the deepest zoom (the lower zooms would take gdaladdo on top).
# Wall time, tiles/s and MB/s of tiles written, peak RSS. Works in a journaled ext4 image
# loop-mounted at BENCH_WORK when run as root (as Benchmarks/benchmark.sh does).
#
#   Benchmarks/geopackage-benchmark.sh [TILES]   (default 100000; RUNS=3; GDAL_RUNS=1, as
#   gdal_translate takes minutes where tilesync takes seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-100000}
runs=${RUNS:-3}
gdal_runs=${GDAL_RUNS:-1}
work=${BENCH_WORK:-/tmp/tilesync-gpkg-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-gpkg-bench.img}
command -v gdal_translate >/dev/null || { echo "needs gdal_translate (apt-get install gdal-bin)" >&2; exit 1; }
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
loop_work_mount $(( tiles * 40000 * 6 + (2 << 30) ))
results=$(mktemp -d /tmp/tilesync-gpkg-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"

echo "generating $tiles raster tiles ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --kind picture --out source.mbtiles
read -r count bytes <<< "$(sqlite3 source.mbtiles "SELECT count(*), sum(length(tile_data)) FROM tiles" | tr '|' ' ')"
deepest=$(sqlite3 source.mbtiles "SELECT count(*) FROM tiles WHERE zoom_level = (SELECT max(zoom_level) FROM tiles)")
"$bin/tilesync" convert source.mbtiles read.gpkg --quiet

for run in $(seq "$runs"); do
  rm -f out.gpkg back.mbtiles copy.mbtiles gdal.gpkg
  measure to-gpkg "$bin/tilesync" convert source.mbtiles out.gpkg --quiet
  measure from-gpkg "$bin/tilesync" convert read.gpkg back.mbtiles --quiet
  measure copy "$bin/tilesync" convert source.mbtiles copy.mbtiles --quiet
  if [ "$run" -le "$gdal_runs" ]; then
    measure gdal gdal_translate -q -of GPKG -co TILING_SCHEME=GoogleMapsCompatible source.mbtiles gdal.gpkg
  fi
done
"$bin/tilesync" verify source.mbtiles out.gpkg --quiet
"$bin/tilesync" verify source.mbtiles back.mbtiles --quiet
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"

echo
echo "GeoPackage benchmark: $count raster tiles ($(( bytes / 1000000 )) MB), median of $runs runs ($gdal_runs of gdal_translate); $fs"
printf "%-60s %s\n" "tilesync convert MBTiles -> GeoPackage" "$(report to-gpkg "$count" "$bytes")"
printf "%-60s %s\n" "tilesync convert GeoPackage -> MBTiles" "$(report from-gpkg "$count" "$bytes")"
printf "%-60s %s\n" "tilesync convert MBTiles -> MBTiles" "$(report copy "$count" "$bytes")"
printf "%-60s %s\n" "gdal_translate -of GPKG GoogleMapsCompatible ($deepest tiles)" "$(report gdal "$deepest" "$bytes")"
awk -v a="$(median to-gpkg)" -v b="$(median from-gpkg)" -v c="$(median copy)" -v d="$(median gdal)" 'BEGIN {
  printf "against the MBTiles copy: to GeoPackage %.2fx its time, from GeoPackage %.2fx; gdal_translate takes %.1fx tilesync'"'"'s time\n", a / c, b / c, d / a }'
rm -rf "$results"
