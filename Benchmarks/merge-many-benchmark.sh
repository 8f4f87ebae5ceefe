#!/usr/bin/env bash
# Merging many sources (issue 34), release build, median of RUNS, the peer in the same run:
# SOURCES MBTiles of TILES tiles each (defaults 200 and 2000), in two layouts:
#  - regions: the cells of a grid of SOURCES over the world, every one holding all tiles of
#    zooms 0-3 (regional extracts): every source overlaps every other, so past 32 the merge
#    goes through scratch runs of 32 sources;
#  - bands: runs of the (zoom, column, row) order whose neighbours overlap by a tenth: two or
#    three sources open at a time, one merge without runs.
# Each is merged into one MBTiles by `tilesync convert S0 ... DST --on-duplicate override`
# against `sqlite3` with ATTACH + INSERT OR REPLACE per source. Wall time, tiles/s and MB/s of
# tiles written, peak RSS. Works in a journaled ext4 image loop-mounted at BENCH_WORK when run
# as root (as Benchmarks/benchmark.sh does).
#
#   Benchmarks/merge-many-benchmark.sh [SOURCES [TILES]]   (defaults 200 2000; RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
tiles=${2:-2000}
runs=${RUNS:-3}
work=${BENCH_WORK:-/tmp/tilesync-merge-many-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-merge-many-bench.img}
command -v sqlite3 >/dev/null || { echo "needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; }
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
loop_work_mount $(( count * tiles * 12000 * 3 + (2 << 30) ))
results=$(mktemp -d /tmp/tilesync-merge-many-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"

for layout in regions bands; do
  echo "generating $count x $tiles tiles ($layout) ..." >&2
  mkdir -p "$layout"
  names=()
  for i in $(seq 0 $(( count - 1 ))); do
    if [ "$layout" = regions ]; then place=(--region "$i/$count"); else place=(--skip $(( i * tiles * 9 / 10 ))); fi
    "$bin/tilesync-benchmark" generate --tiles "$tiles" "${place[@]}" --seed $(( i + 1 )) --out "$layout/s$i.mbtiles"
    names+=("$layout/s$i.mbtiles")
  done
  {
    echo "CREATE TABLE metadata (name TEXT, value TEXT); CREATE UNIQUE INDEX name ON metadata (name);"
    echo "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);"
    echo "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);"
    for name in "${names[@]}"; do
      echo "ATTACH '$name' AS src; INSERT OR REPLACE INTO metadata SELECT * FROM src.metadata;"
      echo "INSERT OR REPLACE INTO tiles SELECT zoom_level, tile_column, tile_row, tile_data FROM src.tiles; DETACH src;"
    done
  } > "$layout.sql"
  for run in $(seq "$runs"); do
    rm -f "$layout-m.mbtiles" "$layout-sql.mbtiles"
    measure "$layout-tilesync" "$bin/tilesync" convert "${names[@]}" "$layout-m.mbtiles" --on-duplicate override --quiet
    measure "$layout-sqlite3" sqlite3 "$layout-sql.mbtiles" ".read $layout.sql"
  done
  "$bin/tilesync" verify "$layout-m.mbtiles" "$layout-sql.mbtiles" --quiet
  merged=$(sqlite3 "$layout-m.mbtiles" "SELECT count(*), sum(length(tile_data)) FROM tiles")
  declare "tiles_$layout=${merged%|*}" "bytes_$layout=${merged#*|}"
  rm -rf "$layout" "$layout-m.mbtiles" "$layout-sql.mbtiles"
done

fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
echo
echo "merge of $count sources x $tiles tiles, --on-duplicate override; median of $runs runs; $fs"
for layout in regions bands; do
  tiles_var="tiles_$layout" bytes_var="bytes_$layout"
  printf "%-52s %s\n" "tilesync convert, $layout (-> ${!tiles_var} tiles)" "$(report "$layout-tilesync" "${!tiles_var}" "${!bytes_var}")"
  printf "%-52s %s\n" "sqlite3 ATTACH + INSERT OR REPLACE, $layout" "$(report "$layout-sqlite3" "${!tiles_var}" "${!bytes_var}")"
done
rm -rf "$results"
