#!/usr/bin/env bash
# Raster re-encoding benchmark: `tilesync convert --tile-format` of generated map pictures (PNG
# as a renderer writes it) next to the per-file tools over the extracted folder, one process per
# core (`xargs -P`): cwebp -q Q (lossy), cwebp -lossless -exact (lossless), optipng -o2 (PNG),
# and a Pillow pool. Then the real raster fixtures, sizes only. Release build; median of RUNS;
# wall time, tiles/s, MB/s of source bytes, peak RSS, output bytes and their ratio to cwebp's
# (optipng's for PNG). Works in a journaled ext4 image loop-mounted at BENCH_WORK when run as
# root (Benchmarks/loop-work.sh), else in a plain folder.
#
#   Benchmarks/raster-benchmark.sh [TILES] [MODES]   (default 100000 "webp-lossy webp-lossless png";
#                                                    RUNS=1, QUALITY=75)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-100000}
modes=${2:-webp-lossy webp-lossless png}
runs=${RUNS:-1}
quality=${QUALITY:-75}
work=${BENCH_WORK:-/tmp/tilesync-raster-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-raster-bench.img}
for tool in cwebp optipng sqlite3 xargs; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install webp optipng sqlite3)" >&2; exit 1; }
done
python3 -c "import PIL" 2>/dev/null || { echo "needs Pillow (pip install pillow)" >&2; exit 1; }
. Benchmarks/release-build.sh
. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
loop_work_mount $(( tiles * 60000 + (4 << 30) ))
results=$(mktemp -d /tmp/tilesync-raster-results.XXXXXX)
cd "$work"
cores=$(nproc)

echo "generating $tiles map pictures ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --kind picture --repeat 0.2 --out a.mbtiles
"$bin/tilesync" convert a.mbtiles tree --quiet
bytes=$(sqlite3 a.mbtiles "select sum(length(tile_data)) from tiles")

. "$repo/Benchmarks/measure.sh"

# tree_bytes DIR SUFFIX: the bytes of the files ending in SUFFIX under DIR.
tree_bytes() { find "$1" -name "*$2" -printf "%s\n" | awk '{s+=$1} END {print s+0}'; }
ours_options() {
  case $1 in
    webp-lossy) echo "--tile-format webp --quality $quality" ;;
    webp-lossless) echo "--tile-format webp --lossless --quality $quality" ;;
    png) echo "--tile-format png" ;;
  esac
}
# per_file MODE SRC OUT: the per-file tool of MODE over the PNGs under SRC into OUT (a sibling
# folder), one process per core.
per_file() {
  case $1 in
    webp-lossy) (cd "$2" && find . -name "*.png" | xargs -P "$cores" -I{} sh -c "mkdir -p ../$3/\$(dirname {}) && cwebp -quiet -q $quality {} -o ../$3/{}.webp") ;;
    webp-lossless) (cd "$2" && find . -name "*.png" | xargs -P "$cores" -I{} sh -c "mkdir -p ../$3/\$(dirname {}) && cwebp -quiet -lossless -exact -q $quality {} -o ../$3/{}.webp") ;;
    png) rm -rf "$3"; cp -r "$2" "$3"; find "$3" -name "*.png" | xargs -P "$cores" -n 32 optipng -quiet -o2 ;;
  esac
}
export -f per_file
export quality cores

for run in $(seq "$runs"); do
  for mode in $modes; do
    # shellcheck disable=SC2046
    measure "ours-$mode" "$bin/tilesync" convert a.mbtiles "out-$mode.mbtiles" --force --quiet $(ours_options "$mode")
    rm -rf "peer-$mode" "pillow-$mode"
    measure "peer-$mode" bash -c "per_file $mode tree peer-$mode"
    measure "pillow-$mode" python3 "$repo/Benchmarks/raster-benchmark.py" tree "pillow-$mode" "$mode" "$quality"
  done
done

echo
echo "raster benchmark: $tiles map pictures ($(echo "$bytes / 1000000" | bc -l | cut -c1-6) MB of PNG), $cores cores, median of $runs runs, quality $quality"
for mode in $modes; do
  ours=$(sqlite3 "out-$mode.mbtiles" "select sum(length(tile_data)) from tiles")
  suffix=$([ "$mode" = png ] && echo .png || echo .webp)
  peer=$(tree_bytes "peer-$mode" "$suffix")
  pillow=$(tree_bytes "pillow-$mode" "$suffix")
  peer_name=$([ "$mode" = png ] && echo "optipng -o2" || echo "cwebp$([ "$mode" = webp-lossless ] && echo ' -lossless -exact')")
  printf "%-44s %s %12d B (%.4f of peer)\n" "tilesync convert --tile-format ($mode)" "$(report "ours-$mode" "$tiles" "$bytes")" "$ours" "$(echo "$ours / $peer" | bc -l)"
  printf "%-44s %s %12d B\n" "$peer_name per file, xargs -P $cores" "$(report "peer-$mode" "$tiles" "$bytes")" "$peer"
  printf "%-44s %s %12d B (%.4f of peer)\n" "Pillow pool of $cores ($mode)" "$(report "pillow-$mode" "$tiles" "$bytes")" "$pillow" "$(echo "$pillow / $peer" | bc -l)"
done

echo
echo "real raster fixtures (../shared/fixtures): bytes before and after, cwebp per file at the same settings"
fixtures="$repo/../shared/fixtures"
for store in node-mbtiles/plain_1.mbtiles "protomaps-PMTiles/spec-v3/stamen_toner(raster)CC-BY+ODbL_z3.pmtiles" tilelive-file/readonly; do
  [ -e "$fixtures/$store" ] || continue
  rm -rf fixture fixture-out*
  "$bin/tilesync" convert "$fixtures/$store" fixture --quiet
  before=$(tree_bytes fixture .png)
  for mode in webp-lossy webp-lossless png; do
    # shellcheck disable=SC2046
    "$bin/tilesync" convert fixture "fixture-out-$mode.mbtiles" --quiet $(ours_options "$mode")
    ours=$(sqlite3 "fixture-out-$mode.mbtiles" "select sum(length(tile_data)) from tiles")
    rm -rf "fixture-peer-$mode"
    per_file "$mode" fixture "fixture-peer-$mode"
    suffix=$([ "$mode" = png ] && echo .png || echo .webp)
    peer=$(tree_bytes "fixture-peer-$mode" "$suffix")
    printf "%-70s %-14s %10d B -> %10d B (peer %10d B, %.4f)\n" "$store" "$mode" "$before" "$ours" "$peer" "$(echo "$ours / $peer" | bc -l)"
  done
done
rm -rf "$results"
