#!/usr/bin/env bash
# Refreshing a published copy from expire lists (issue 51), release build, peer in the same run.
#
# Yesterday's copy is a 1,000,000-tile MBTiles of one regional cell (`--region 137/400`: zooms
# 0-14 whole inside the cell and the start of 15). Each day an expire list names 10,000 tiles at
# zoom 14 in 100 clusters of 100 (edits come in places, as osm2pgsql's lists do), another list
# each day; `--expand-zooms 0-14` widens it to their parents. nginx on 127.0.0.1 (2 workers,
# sendfile, no access log) serves today's versions of that day's widened set (another seed:
# every listed tile changed). Two copies of yesterday's file live through the same days:
#   tilesync sync URL plain.mbtiles --tiles day-N.txt --expand-zooms 0-14
#   tilesync sync URL patched.mbtiles --tiles day-N.txt --expand-zooms 0-14 --write-patch day-N.patch
#   wget -i over the day's widened URL list (one connection), into a folder: those tiles alone
# Day 0 is each copy's first sync (the patch's base hash is computed, beside the download);
# days 1..RUNS are the refresh loop, whose base hash the last sync recorded. At the end the
# plain copy must hold today's tiles at every listed place (`verify --tiles`), and the chain of
# day patches applied to yesterday's file must give the patched copy (same agg_tiles_hash).
#
#   Benchmarks/refresh-benchmark.sh [TILES [LISTED]]   (defaults 1000000 10000; RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-1000000}
listed=${2:-10000}
runs=${RUNS:-3}
work=${BENCH_WORK:-/tmp/tilesync-refresh-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-refresh-bench.img}
for tool in nginx wget python3 sqlite3; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install nginx-light wget python3 sqlite3)" >&2; exit 1; }
done
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
. Benchmarks/nginx-work.sh
stop_nginx() { nginx_stop; loop_work_unmount; }
trap stop_nginx EXIT
loop_work_mount $(( (tiles * 1500 * 8 >> 20 << 20) + (4 << 30) ))
results=$(mktemp -d /tmp/tilesync-refresh-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"

make_list() { # DAY: $listed z14 tiles of the cell in clusters of 100, another list each day
  python3 - "$listed" "$1" <<'PY'
import random, sys
count, day = int(sys.argv[1]), int(sys.argv[2])
random.seed(7 + day)
size = 1 << 14
columns, rows = 20, 20                       # the generator's grid for 400 cells
cell_x, cell_y = 137 % columns, 137 // columns
x0, x1 = -(-cell_x * size // columns), -(-(cell_x + 1) * size // columns) - 1
y0, y1 = -(-cell_y * size // rows), -(-(cell_y + 1) * size // rows) - 1
tiles = set()
while len(tiles) < count:
    x, y = random.randint(x0, x1), random.randint(y0, y1)
    for _ in range(100):
        if len(tiles) == count: break
        tiles.add((x, y))
        x = min(x1, max(x0, x + random.choice((-1, 0, 1))))
        y = min(y1, max(y0, y + random.choice((-1, 0, 1))))
for x, y in sorted(tiles, key=lambda t: random.random()):
    print(f"14/{x}/{y}")
PY
}

echo "generating yesterday's and today's $tiles tiles ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --region 137/400 --average 1500 --seed 1 --out yesterday.mbtiles
"$bin/tilesync-benchmark" generate --tiles "$tiles" --region 137/400 --average 1500 --seed 2 --out today.mbtiles
port=18710
base="http://127.0.0.1:$port"
for day in $(seq 0 "$runs"); do
  make_list "$day" > "day-$day.txt"
  "$bin/tilesync" convert today.mbtiles "tree-$day" --tiles "day-$day.txt" --expand-zooms 0-14 --quiet
  (cd "tree-$day" && find . -name '*.pbf' | sed "s|^\.|$base|") > "urls-$day.txt"
done
widened=$(wc -l < urls-1.txt)
bytes=$(find tree-1 -name '*.pbf' -printf '%s\n' | awk '{s += $1} END {print s}')
nginx_start "$work/current" "$port"

cp yesterday.mbtiles plain.mbtiles
cp yesterday.mbtiles patched.mbtiles
patches=()
for day in $(seq 0 "$runs"); do
  ln -sfn "tree-$day" current
  kind=listed; [ "$day" = 0 ] && kind=first
  measure "$kind" "$bin/tilesync" sync "$base/{z}/{x}/{y}.pbf" plain.mbtiles --tiles "day-$day.txt" --expand-zooms 0-14 --quiet
  measure "$kind-patch" "$bin/tilesync" sync "$base/{z}/{x}/{y}.pbf" patched.mbtiles --tiles "day-$day.txt" --expand-zooms 0-14 --quiet \
    --write-patch "day-$day.patch"
  patches+=("day-$day.patch")
  rm -rf wget
  measure "wget-$kind" wget -q -i "urls-$day.txt" -x -nH -P wget
done
cat day-*.txt > all-days.txt
"$bin/tilesync" verify today.mbtiles plain.mbtiles --tiles all-days.txt --expand-zooms 0-14 --quiet
cp yesterday.mbtiles applied.mbtiles
measure chain "$bin/tilesync" apply "${patches[@]}" applied.mbtiles --quiet
hash() { sqlite3 "$1" "SELECT value FROM metadata WHERE name = 'agg_tiles_hash'"; }
[ "$(hash applied.mbtiles)" = "$(hash patched.mbtiles)" ] || { echo "the patches applied to yesterday's copy differ from the synced copy" >&2; exit 1; }
patch_bytes=$(stat -c %s day-1.patch)
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
echo
echo "refresh benchmark: $tiles-tile MBTiles; each day $listed listed z14 tiles widened to about $widened (zooms 0-14; day 1: $bytes bytes) from nginx on loopback; $fs"
echo "day 0, each copy's first sync:"
printf "  %-64s %s\n" "tilesync sync --tiles" "$(report first "$widened" "$bytes")"
printf "  %-64s %s\n" "tilesync sync --tiles --write-patch (base hash computed)" "$(report first-patch "$widened" "$bytes")"
printf "  %-64s %s\n" "wget -i (one connection) -> folder" "$(report wget-first "$widened" "$bytes")"
echo "days 1-$runs, the refresh loop (medians):"
printf "  %-64s %s\n" "tilesync sync --tiles (listed sync)" "$(report listed "$widened" "$bytes")"
printf "  %-64s %s\n" "tilesync sync --tiles --write-patch ($patch_bytes-byte patch)" "$(report listed-patch "$widened" "$bytes")"
printf "  %-64s %s\n" "wget -i (one connection) -> folder" "$(report wget-listed "$widened" "$bytes")"
printf "  %-64s %s\n" "tilesync apply of the $((runs + 1)) day patches to yesterday's copy" "$(report chain "$tiles" 0)"
awk -v a="$(median listed)" -v b="$(median wget-listed)" -v p="$(median listed-patch)" -v f="$(median first)" -v fp="$(median first-patch)" \
  'BEGIN { printf "refresh loop: listed sync %.2fx the time of wget; the patch costs %+.1f%% of the sync (day 0: %+.1f%%)\n", a / b, (p - a) / a * 100, (fp - f) / f * 100 }'
rm -rf "$results"
