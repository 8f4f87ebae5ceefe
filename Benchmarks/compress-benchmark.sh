#!/usr/bin/env bash
# Compression benchmark: `tilesync convert --compress` of a generated MBTiles of uncompressed vector tiles
# next to a plain copy, and `tilesync convert` into .tar.gz / .tar.zst next to `tar -cf - | pigz`
# and `tar -cf - | zstd -T0` of the same tree. Release build; median of RUNS; wall time, tiles/s,
# MB/s of tile bytes, peak RSS. Works in a journaled ext4 image loop-mounted at BENCH_WORK when
# run as root (Benchmarks/loop-work.sh), else in a plain folder.
#
#   Benchmarks/compress-benchmark.sh [TILES]        (default 100000; RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-100000}
runs=${RUNS:-3}
work=${BENCH_WORK:-/tmp/tilesync-compress-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-compress-bench.img}
for tool in sqlite3 pigz zstd tar; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install sqlite3 pigz zstd tar)" >&2; exit 1; }
done
. Benchmarks/release-build.sh
. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
loop_work_mount $(( tiles * 3000 * 10 + (4 << 30) ))
results=$(mktemp -d /tmp/tilesync-compress-results.XXXXXX)
cd "$work"

echo "generating $tiles tiles ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --kind mvt --out a.mbtiles
"$bin/tilesync" convert a.mbtiles tree --quiet
bytes=$(sqlite3 a.mbtiles "select sum(length(tile_data)) from tiles")

. "$repo/Benchmarks/measure.sh"

for run in $(seq "$runs"); do
  measure copy "$bin/tilesync" convert a.mbtiles out.mbtiles --force
  for target in gzip zstd brotli none; do
    measure "compress-$target" "$bin/tilesync" convert a.mbtiles out.mbtiles --force --compress "$target"
  done
  measure tar-gz "$bin/tilesync" convert a.mbtiles out.tar.gz --force
  measure pigz sh -c "tar -cf - -C tree . | pigz > peer.tar.gz"
  measure tar-zst "$bin/tilesync" convert a.mbtiles out.tar.zst --force
  measure zstd-t0 sh -c "tar -cf - -C tree . | zstd -q -T0 > peer.tar.zst"
done

echo
echo "compress benchmark: $tiles vector tiles ($(echo "$bytes / 1000000" | bc -l | cut -c1-6) MB, uncompressed), $(nproc) cores, median of $runs runs"
printf "%-52s %s\n" "tilesync convert MBTiles -> MBTiles (copy)" "$(report copy "$tiles" "$bytes")"
for target in gzip zstd brotli none; do
  printf "%-52s %s\n" "tilesync convert --compress $target" "$(report compress-$target "$tiles" "$bytes")"
done
printf "%-52s %s\n" "tilesync convert MBTiles -> .tar.gz" "$(report tar-gz "$tiles" "$bytes")"
printf "%-52s %s\n" "tar -cf - tree | pigz" "$(report pigz "$tiles" "$bytes")"
printf "%-52s %s\n" "tilesync convert MBTiles -> .tar.zst" "$(report tar-zst "$tiles" "$bytes")"
printf "%-52s %s\n" "tar -cf - tree | zstd -T0" "$(report zstd-t0 "$tiles" "$bytes")"
rm -rf "$results"
