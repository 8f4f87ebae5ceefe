#!/usr/bin/env bash
# Tile server over real latency (issue 49), release build, median of RUNS, peers in the same run:
# nginx on 127.0.0.1 serves every tile of zooms 0-MAXZOOM (1,365 raster tiles for 5) over HTTPS
# with HTTP/2 (a self-signed certificate made here by openssl) and over plain HTTP/1.1, each
# behind Benchmarks/latency-relay.py adding DELAY ms each way (100 ms round trips). Runs:
#   tilesync convert 'https://.../{z}/{x}/{y}.png' out.mbtiles --cacert cert.pem   (defaults: HTTP/2, 1 connection, 32 streams)
#   tilesync convert 'http://...'  (HTTP/1.1: the default 2 connections, and --connections 8)
#   curl --parallel --parallel-max 32 --http2 over the same URLs (the same requests in flight)
#   aria2c -j 8 over HTTPS (HTTP/1.1: aria2 has no HTTP/2)
# and counts the connections each opened from nginx's log ($connection). Wall time, tiles/s,
# MB/s of tiles, peak RSS.
#
#   Benchmarks/http2-benchmark.sh [MAXZOOM [DELAY]]   (defaults 5, 50; RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
maxzoom=${1:-5}
delay=${2:-50}
runs=${RUNS:-3}
work=${BENCH_WORK:-/tmp/tilesync-http2-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-http2-bench.img}
for tool in nginx aria2c curl openssl; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install nginx-light aria2 curl openssl)" >&2; exit 1; }
done
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
tiles=$(( ((1 << (2 * (maxzoom + 1))) - 1) / 3 ))
relays=()
stop_all() {
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for pid in "${relays[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 0.3; loop_work_unmount
}
trap stop_all EXIT
loop_work_mount $(( tiles * 4 * 8192 * 8 + (1 << 30) ))
results=$(mktemp -d /tmp/tilesync-http2-results.XXXXXX)
cd "$work"
. "$repo/Benchmarks/measure.sh"

"$bin/tilesync-benchmark" generate --tiles "$tiles" --kind raster --out source.mbtiles >&2
"$bin/tilesync" convert source.mbtiles tree --quiet
bytes=$(du -sb tree | cut -f1)
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout key.pem -out cert.pem 2>/dev/null
mkdir -p logs
cat > nginx.conf <<CONF
worker_processes 2;
daemon on;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 4096; }
http {
  log_format connections '\$connection \$server_protocol';
  access_log $work/logs/connections.log connections;
  sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  server { listen 127.0.0.1:18801 ssl http2; ssl_certificate $work/cert.pem; ssl_certificate_key $work/key.pem; root $work/tree; }
  server { listen 127.0.0.1:18802; root $work/tree; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
# relay PORT: starts a relay in front of PORT (in this shell, so that the EXIT trap stops it).
relay() {
  python3 "$repo/Benchmarks/latency-relay.py" "$1" "$delay" > "relay-$1.port" 2>/dev/null &
  relays+=($!)
  for _ in $(seq 100); do [ -s "relay-$1.port" ] && break; sleep 0.1; done
}
relay 18801; relay 18802
tls="https://127.0.0.1:$(head -1 relay-18801.port)"
plain="http://127.0.0.1:$(head -1 relay-18802.port)"
: > curl.cfg; : > aria.txt
for z in $(seq 0 "$maxzoom"); do
  awk -v z="$z" -v base="$tls" 'BEGIN { n = 2 ^ z; for (x = 0; x < n; x++) for (y = 0; y < n; y++)
    printf "url = \"%s/%d/%d/%d.png\"\noutput = \"curl/%d/%d/%d.png\"\n", base, z, x, y, z, x, y }' >> curl.cfg
  awk -v z="$z" -v base="$tls" 'BEGIN { n = 2 ^ z; for (x = 0; x < n; x++) for (y = 0; y < n; y++)
    printf "%s/%d/%d/%d.png\n  out=%d/%d/%d.png\n", base, z, x, y, z, x, y }' >> aria.txt
done

# connections NAME: the connections nginx saw since the last call, appended to NAME's list.
connections() { sort -u logs/connections.log | wc -l >> "$results/$1.connections"; : > logs/connections.log; }
: > logs/connections.log
for run in $(seq "$runs"); do
  rm -rf h2.mbtiles h1.mbtiles h1x8.mbtiles curl aria
  measure h2 "$bin/tilesync" convert "$tls/{z}/{x}/{y}.png" h2.mbtiles --max-zoom "$maxzoom" --cacert cert.pem --quiet; connections h2
  measure h1 "$bin/tilesync" convert "$plain/{z}/{x}/{y}.png" h1.mbtiles --max-zoom "$maxzoom" --quiet; connections h1
  measure h1x8 "$bin/tilesync" convert "$plain/{z}/{x}/{y}.png" h1x8.mbtiles --max-zoom "$maxzoom" --connections 8 --quiet; connections h1x8
  measure curl curl --parallel --parallel-max 32 --http2 --cacert cert.pem --create-dirs -s -K curl.cfg; connections curl
  measure aria2c aria2c -j 8 -i aria.txt -d aria --ca-certificate=cert.pem --quiet=true --auto-file-renaming=false \
    --allow-overwrite=true --file-allocation=none --console-log-level=error; connections aria2c
done
"$bin/tilesync" verify h2.mbtiles tree --quiet
"$bin/tilesync" verify curl tree --quiet
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
echo
echo "tile server over latency: $tiles tiles of zooms 0-$maxzoom ($bytes bytes), nginx behind a relay adding $delay ms each way; median of $runs runs; $fs"
for name in h2 h1 h1x8 curl aria2c; do
  label=$(case $name in
    h2) echo "tilesync, HTTPS + HTTP/2 (defaults: 32 streams)";; h1) echo "tilesync, HTTP/1.1 (default 2 connections)";;
    h1x8) echo "tilesync, HTTP/1.1 --connections 8";; curl) echo "curl --parallel --parallel-max 32 --http2";;
    aria2c) echo "aria2c -j 8 (HTTPS, HTTP/1.1)";; esac)
  printf "%-50s %s %s connections\n" "$label" "$(report $name "$tiles" "$bytes")" "$(sort -n "$results/$name.connections" | tail -1)"
done
rm -rf "$results"
