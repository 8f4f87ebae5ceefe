#!/usr/bin/env bash
# Merge benchmark (issue 34), release build, median of RUNS, peers in the same run:
#  1. 10 MBTiles of TILES tiles each (LAYOUT=bands, the default: runs of the (zoom, column, row)
#     order whose neighbours overlap by a tenth, with other bytes there; LAYOUT=regions: the
#     cells of a grid over the world, every one holding all tiles of zooms 0-3, as regional
#     extracts do; LAYOUT=same: all ten at the same coordinates, each with other bytes, as
#     versions of one area are),
#     merged into one MBTiles by `tilesync convert A ... J DST --on-duplicate ignore|override`,
#     against what users script today: `sqlite3` creating DST and running ATTACH + INSERT OR
#     IGNORE (or INSERT OR REPLACE) per source. TileSync runs twice per policy: as it comes (with
#     martin's agg_tiles_hash, an MD5 of every tile) and with --skip-agg-tiles-hash (like the SQL,
#     which writes no such hash).
#  2. 4 PMTiles of PARTS tiles each, whose tile-ID ranges do not overlap (the z10 quadrants of
#     one set), joined by `tilesync convert` (data sections copied, directories rewritten),
#     against `cat` of the same files (the floor: the bytes copied once).
#  3. Peak memory: 10 MBTiles of BIG tiles each (small tiles), merged into one MBTiles.
# Wall time, tiles/s and MB/s of tiles written, peak RSS. Works in a journaled ext4 image
# loop-mounted at BENCH_WORK when run as root (as Benchmarks/benchmark.sh does).
#
#   Benchmarks/merge-benchmark.sh [TILES [PARTS [BIG]]]   (defaults 100000 262144 1000000; RUNS=3, LAYOUT=bands)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-100000}
parts=${2:-262144}
big=${3:-1000000}
runs=${RUNS:-3}
layout=${LAYOUT:-bands}
work=${BENCH_WORK:-/tmp/tilesync-merge-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-merge-bench.img}
command -v sqlite3 >/dev/null || { echo "needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; }
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
# The sources and six merged MBTiles (two policies: tilesync, without the hash, sqlite3) at once.
loop_work_mount $(( tiles * 3500 * 10 * 8 + parts * 4 * 3000 * 4 + big * 10 * 400 * 3 + (4 << 30) ))
results=$(mktemp -d /tmp/tilesync-merge-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"

echo "generating 10 x $tiles tiles, 4 x $parts, 10 x $big ..." >&2
names=()
for i in $(seq 0 9); do
  case $layout in
    regions) place=(--region "$i/10");;
    same) place=(--skip 0);;
    *) place=(--skip $(( i * tiles * 9 / 10 )));;
  esac
  "$bin/tilesync-benchmark" generate --tiles "$tiles" "${place[@]}" --seed $(( i + 1 )) --out "s$i.mbtiles"
  names+=("s$i.mbtiles")
done
"$bin/tilesync-benchmark" generate --tiles $(( parts * 4 )) --skip $(( (parts * 4 - 1) / 3 )) --out z.mbtiles
boxes=("-180,0.001,-0.001,85" "0.001,0.001,180,85" "-180,-85,-0.001,-0.001" "0.001,-85,180,-0.001")
pm=()
for i in 0 1 2 3; do
  "$bin/tilesync" convert z.mbtiles "q$i.pmtiles" --bbox="${boxes[$i]}" --quiet
  pm+=("q$i.pmtiles")
done
rm z.mbtiles
bigs=()
for i in $(seq 0 9); do
  "$bin/tilesync-benchmark" generate --tiles "$big" --skip $(( i * big * 9 / 10 )) --seed $(( i + 1 )) --average 200 --out "b$i.mbtiles"
  bigs+=("b$i.mbtiles")
done

# What users script today: create DST, then one ATTACH + INSERT OR IGNORE|REPLACE per source.
for verb in IGNORE REPLACE; do
  {
    echo "CREATE TABLE metadata (name TEXT, value TEXT); CREATE UNIQUE INDEX name ON metadata (name);"
    echo "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);"
    echo "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);"
    for name in "${names[@]}"; do
      echo "ATTACH '$name' AS src; INSERT OR $verb INTO metadata SELECT * FROM src.metadata;"
      echo "INSERT OR $verb INTO tiles SELECT zoom_level, tile_column, tile_row, tile_data FROM src.tiles; DETACH src;"
    done
  } > "merge-$verb.sql"
done

for run in $(seq "$runs"); do
  for policy in ignore override; do
    verb=$([ $policy = ignore ] && echo IGNORE || echo REPLACE)
    rm -f "m-$policy.mbtiles" "sql-$policy.mbtiles" "n-$policy.mbtiles"
    measure "merge-$policy" "$bin/tilesync" convert "${names[@]}" "m-$policy.mbtiles" --on-duplicate "$policy" --quiet
    measure "nohash-$policy" "$bin/tilesync" convert "${names[@]}" "n-$policy.mbtiles" --on-duplicate "$policy" --skip-agg-tiles-hash --quiet
    measure "sqlite3-$policy" sqlite3 "sql-$policy.mbtiles" ".read merge-$verb.sql"
  done
  rm -f joined.pmtiles catted.pmtiles
  measure join "$bin/tilesync" convert "${pm[@]}" joined.pmtiles --quiet
  measure cat bash -c "cat ${pm[*]} > catted.pmtiles"
  rm -f big.mbtiles
  measure merge-big "$bin/tilesync" convert "${bigs[@]}" big.mbtiles --on-duplicate override --quiet
done
for policy in ignore override; do
  "$bin/tilesync" verify "m-$policy.mbtiles" "sql-$policy.mbtiles" --quiet
  "$bin/tilesync" verify "n-$policy.mbtiles" "sql-$policy.mbtiles" --quiet
done
merged=$(sqlite3 m-ignore.mbtiles "SELECT count(*), sum(length(tile_data)) FROM tiles")
merged_tiles=${merged%|*}; merged_bytes=${merged#*|}
joined_bytes=$(stat -c %s joined.pmtiles)
joined_tiles=$(( parts * 4 ))
big_tiles=$(sqlite3 big.mbtiles "SELECT count(*) FROM tiles"); big_bytes=$(stat -c %s big.mbtiles)
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"

echo
echo "merge benchmark ($layout): 10 x $tiles tiles -> $merged_tiles; 4 x $parts -> $joined_tiles; 10 x $big -> $big_tiles; median of $runs runs; $fs"
printf "%-58s %s\n" "tilesync convert 10 MBTiles -> MBTiles --on-duplicate ignore" "$(report merge-ignore "$merged_tiles" "$merged_bytes")"
printf "%-58s %s\n" "  the same with --skip-agg-tiles-hash" "$(report nohash-ignore "$merged_tiles" "$merged_bytes")"
printf "%-58s %s\n" "sqlite3 ATTACH + INSERT OR IGNORE per source" "$(report sqlite3-ignore "$merged_tiles" "$merged_bytes")"
printf "%-58s %s\n" "tilesync convert 10 MBTiles -> MBTiles --on-duplicate override" "$(report merge-override "$merged_tiles" "$merged_bytes")"
printf "%-58s %s\n" "  the same with --skip-agg-tiles-hash" "$(report nohash-override "$merged_tiles" "$merged_bytes")"
printf "%-58s %s\n" "sqlite3 ATTACH + INSERT OR REPLACE per source" "$(report sqlite3-override "$merged_tiles" "$merged_bytes")"
printf "%-58s %s\n" "tilesync convert 4 disjoint PMTiles -> PMTiles (join)" "$(report join "$joined_tiles" "$joined_bytes")"
printf "%-58s %s\n" "cat of the 4 PMTiles" "$(report cat "$joined_tiles" "$joined_bytes")"
printf "%-58s %s\n" "tilesync convert 10 x $big small tiles -> MBTiles" "$(report merge-big "$big_tiles" "$big_bytes")"
awk -v a="$(median merge-ignore)" -v b="$(median sqlite3-ignore)" -v c="$(median merge-override)" -v d="$(median sqlite3-override)" \
    -v e="$(median join)" -v f="$(median cat)" -v g="$(median nohash-ignore)" -v h="$(median nohash-override)" 'BEGIN {
  printf "merge vs sqlite3: %.2fx (ignore), %.2fx (override); without agg_tiles_hash, as the SQL: %.2fx, %.2fx; join / cat: %.2f\n",
         b / a, d / c, b / g, d / h, e / (f > 0 ? f : 0.01) }'
rm -rf "$results"
