#!/usr/bin/env bash
# Tile server download benchmark (issue 38), release build, peers in the same run:
# nginx on 127.0.0.1 (2 workers, sendfile, no access log) serves a folder of every tile of
# zooms 0-MAXZOOM (87,381 raster tiles of ~600 bytes for 8), and
#   tilesync convert 'http://127.0.0.1:PORT/{z}/{x}/{y}.png' out.mbtiles --connections N
# (a finished MBTiles) runs against `aria2c -j N` fetching the same URL list into a folder and
# `wget -i` over the list (one connection); then `tilesync sync` into a new MBTiles, a no-op
# rerun of it (nginx sends `Cache-Control: max-age=3600`, so every tile is still fresh) and a
# rerun with `--revalidate` (every tile asked conditionally: 304s).
# Wall time, tiles/s, MB/s of tiles, peak RSS. Works in a journaled ext4 image loop-mounted
# at BENCH_WORK when run as root (as Benchmarks/benchmark.sh does).
#
#   Benchmarks/tileserver-benchmark.sh [MAXZOOM [CONNECTIONS]]   (defaults 8, 8; RUNS=1)
set -euo pipefail
cd "$(dirname "$0")/.."
maxzoom=${1:-8}
connections=${2:-8}
runs=${RUNS:-1}
work=${BENCH_WORK:-/tmp/tilesync-tileserver-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-tileserver-bench.img}
for tool in nginx aria2c wget; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install nginx-light aria2 wget)" >&2; exit 1; }
done
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
tiles=$(( ((1 << (2 * (maxzoom + 1))) - 1) / 3 ))
. Benchmarks/nginx-work.sh
stop_nginx() { nginx_stop; loop_work_unmount; }
trap stop_nginx EXIT
loop_work_mount $(( tiles * 4 * 8192 * 4 + (2 << 30) ))
results=$(mktemp -d /tmp/tilesync-tileserver-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"

echo "generating $tiles tiles (zooms 0-$maxzoom) ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --kind raster --out source.mbtiles
"$bin/tilesync" convert source.mbtiles tree --quiet
bytes=$(sqlite3 source.mbtiles "SELECT sum(length(tile_data)) FROM tiles" 2>/dev/null || du -sb tree | cut -f1)
port=18700
nginx_start "$work/tree" "$port"
base="http://127.0.0.1:$port"
: > urls.txt
for z in $(seq 0 "$maxzoom"); do
  awk -v z="$z" -v base="$base" 'BEGIN { n = 2 ^ z; for (x = 0; x < n; x++) for (y = 0; y < n; y++)
    printf "%s/%d/%d/%d.png\n  out=%d/%d/%d.png\n", base, z, x, y, z, x, y }' >> urls.txt
done
grep -v '^  ' urls.txt > wget-urls.txt

for run in $(seq "$runs"); do
  rm -rf out.mbtiles synced.mbtiles .synced.mbtiles.* aria wget
  measure tilesync "$bin/tilesync" convert "$base/{z}/{x}/{y}.png" out.mbtiles --max-zoom "$maxzoom" --connections "$connections" \
    --max-tiles 100000000 --quiet
  measure sync "$bin/tilesync" sync "$base/{z}/{x}/{y}.png" synced.mbtiles --max-zoom "$maxzoom" --connections "$connections" \
    --max-tiles 100000000 --quiet
  measure noop "$bin/tilesync" sync "$base/{z}/{x}/{y}.png" synced.mbtiles --max-zoom "$maxzoom" --connections "$connections" \
    --max-tiles 100000000 --quiet
  measure revalidate "$bin/tilesync" sync "$base/{z}/{x}/{y}.png" synced.mbtiles --max-zoom "$maxzoom" --connections "$connections" \
    --max-tiles 100000000 --quiet --revalidate
  measure aria2c aria2c -j "$connections" -i urls.txt -d aria --quiet=true --auto-file-renaming=false --allow-overwrite=true \
    --file-allocation=none --console-log-level=error
  measure wget wget -q -i wget-urls.txt -x -nH -P wget
done
"$bin/tilesync" verify out.mbtiles tree --quiet
"$bin/tilesync" verify synced.mbtiles tree --quiet
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
echo
echo "tile server benchmark: $tiles tiles of zooms 0-$maxzoom ($bytes bytes) from nginx on loopback, $connections connections; median of $runs runs; $fs"
printf "%-58s %s\n" "tilesync convert -> MBTiles" "$(report tilesync "$tiles" "$bytes")"
printf "%-58s %s\n" "tilesync sync -> new MBTiles" "$(report sync "$tiles" "$bytes")"
printf "%-58s %s\n" "tilesync sync rerun, every tile fresh (no request)" "$(report noop "$tiles" "$bytes")"
printf "%-58s %s\n" "tilesync sync rerun --revalidate (304s)" "$(report revalidate "$tiles" "$bytes")"
printf "%-58s %s\n" "aria2c -j $connections -> folder" "$(report aria2c "$tiles" "$bytes")"
printf "%-58s %s\n" "wget -i (one connection) -> folder" "$(report wget "$tiles" "$bytes")"
rm -rf "$results"
