#!/usr/bin/env bash
# Serving benchmark (issue 35), release build, peers in the same run: TILES generated raster
# tiles served from an MBTiles, a PMTiles and a folder by `tilesync serve` (one server per
# store), next to nginx serving the same folder (the practical ceiling: sendfile, no lookup).
# wrk on loopback asks for tiles picked at random from every tile of the store (a Lua script),
# CONNECTIONS connections, 2 threads, DURATION seconds, after a short warm-up. Prints
# requests/s, MB/s of responses and the server's peak RSS (its RSS also sampled during the load,
# to show it stays flat), and its own memory (RssAnon: RSS counts the pages of an MBTiles that
# each server thread's SQLite connection maps once per mapping, though they are one page cache). Works in a journaled ext4 image loop-mounted at BENCH_WORK when run
# as root (as Benchmarks/benchmark.sh does).
#
#   Benchmarks/serve-benchmark.sh [TILES]   (default 100000; DURATION=10, CONNECTIONS=64)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-100000}
duration=${DURATION:-10}
connections=${CONNECTIONS:-64}
work=${BENCH_WORK:-/tmp/tilesync-serve-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-serve-bench.img}
for tool in wrk nginx python3; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install wrk nginx-light)" >&2; exit 1; }
done
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
servers=()
cleanup() { for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done; cd /; loop_work_unmount; }
trap cleanup EXIT
loop_work_mount $(( tiles * 12000 * 4 + (1 << 30) ))
cd "$work"

echo "generating $tiles raster tiles ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --kind raster --average 8000 --out s.mbtiles
"$bin/tilesync" convert s.mbtiles s.pmtiles --quiet
"$bin/tilesync" convert s.mbtiles tiles --quiet
python3 - "$tiles" <<'PY'
import sqlite3, sys
rows = sqlite3.connect("s.mbtiles").execute("SELECT zoom_level, tile_column, tile_row FROM tiles")
with open("paths.txt", "w") as out:
    for z, x, tms in rows:
        out.write(f"{z}/{x}/{(1 << z) - 1 - tms}.png\n")
PY
cat > paths.lua <<'LUA'
local paths, prefix = {}, os.getenv("PREFIX") or "/"
for line in io.lines("paths.txt") do paths[#paths + 1] = line end
math.randomseed(os.time())
request = function() return wrk.format("GET", prefix .. paths[math.random(#paths)]) end
LUA
mkdir -p nginx-logs
cat > nginx.conf <<CONF
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-logs/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on; tcp_nopush on;
  types { image/png png; }
  server { listen 127.0.0.1:18480; root $work/tiles; etag on; }
}
CONF

peak_kb() { awk '/VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
anon_kb() { awk '/RssAnon/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# run NAME PORT PREFIX PID: warm-up, then the measured wrk run; prints the row.
run() {
  local name=$1 port=$2 prefix=$3 pid=$4
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
  PREFIX=$prefix wrk -t2 -c"$connections" -d2s -s paths.lua "http://127.0.0.1:$port" >/dev/null
  local before; before=$(rss_kb "$pid")
  PREFIX=$prefix wrk -t2 -c"$connections" -d"${duration}s" -s paths.lua "http://127.0.0.1:$port" > "wrk-$name.txt" &
  local load=$! samples=""
  while kill -0 $load 2>/dev/null; do samples="$samples $(( $(rss_kb "$pid") / 1024 ))"; sleep 2; done
  wait $load
  local rate transfer errors
  rate=$(awk '/Requests\/sec/ {print $2}' "wrk-$name.txt")
  transfer=$(awk '/Transfer\/sec/ {print $2}' "wrk-$name.txt")
  errors=$(awk '/Non-2xx|Socket errors/ {print}' "wrk-$name.txt" | tr '\n' ' ')
  printf "%-22s %10.0f req/s %10s/s  peak %6.1f MB  (RSS before %.1f MB, during:%s MB; own memory %.1f MB) %s\n" "$name" "$rate" \
    "$transfer" "$(echo "$(peak_kb "$pid") / 1024" | bc -l)" "$(echo "$before / 1024" | bc -l)" "$samples" \
    "$(echo "$(anon_kb "$pid") / 1024" | bc -l)" "$errors"
}

echo "== $tiles tiles, $(du -sh tiles | cut -f1) folder; wrk -t2 -c$connections -d${duration}s, random tiles"
nginx -c "$work/nginx.conf" -p "$work" &
servers+=($!); sleep 0.5
run "nginx (folder)" 18480 "/" "$(cat "$work/nginx.pid")"
kill "$(cat "$work/nginx.pid")"; sleep 0.5
port=18481
for store in s.mbtiles s.pmtiles tiles; do
  "$bin/tilesync" serve "t=$store" --port $port > "serve-$store.log" &
  pid=$!; servers+=($pid)
  run "tilesync serve $store" $port "/t/" $pid
  kill -INT $pid; wait $pid || true
  port=$(( port + 1 ))
done
