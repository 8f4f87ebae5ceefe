#!/usr/bin/env bash
# Patch benchmark: a generated MBTiles of TILES tiles, a copy with 1% of its tiles replaced and
# 0.1% deleted; `tilesync diff --patch` between them, then `tilesync apply` of that patch to the
# original, to a folder and a PMTiles, next to what it replaces: a full copy of the new store
# (`cp`, `tilesync convert`, `rsync -a` of the new folder) and martin's apply-patch SQL run by
# `sqlite3` (ATTACH, INSERT OR REPLACE, DELETE: no hash checks). Release build; median of RUNS;
# wall time, the store's tiles per second and MB per second (whole-store rates, so apply and
# copy compare), peak RSS. Works in a journaled ext4 image loop-mounted at BENCH_WORK when run
# as root (as Benchmarks/benchmark.sh does), else in a plain folder.
#
#   Benchmarks/patch-benchmark.sh [TILES]        (default 350000; RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-350000}
runs=${RUNS:-3}
work=${BENCH_WORK:-/tmp/tilesync-patch-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-patch-bench.img}
for tool in sqlite3 rsync; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install sqlite3 rsync)" >&2; exit 1; }
done
. Benchmarks/release-build.sh

. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT
loop_work_mount $(( tiles * 3000 * 10 + (4 << 30) ))
results=$(mktemp -d /tmp/tilesync-patch-results.XXXXXX)
cd "$work"

echo "generating $tiles tiles ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --out a.mbtiles
cp a.mbtiles b.mbtiles
sqlite3 b.mbtiles "UPDATE tiles SET tile_data = x'1f8b0800' || randomblob(abs(random()) % 4500 + 500)
                   WHERE rowid IN (SELECT rowid FROM tiles ORDER BY random() LIMIT (SELECT count(*) / 100 FROM tiles));
                   DELETE FROM tiles WHERE rowid IN (SELECT rowid FROM tiles ORDER BY random() LIMIT (SELECT count(*) / 1000 FROM tiles));"
"$bin/tilesync" convert a.mbtiles a-dir --quiet
"$bin/tilesync" convert b.mbtiles b-dir --quiet
"$bin/tilesync" convert a.mbtiles a.pmtiles --quiet
store_bytes=$(stat -c %s b.mbtiles)

. "$repo/Benchmarks/measure.sh"
martin_sql="ATTACH 'p.mbtiles' AS patchDb;
  INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data)
    SELECT zoom_level, tile_column, tile_row, tile_data FROM patchDb.tiles WHERE tile_data NOTNULL;
  DELETE FROM tiles WHERE (zoom_level, tile_column, tile_row) IN
    (SELECT zoom_level, tile_column, tile_row FROM patchDb.tiles WHERE tile_data ISNULL);
  INSERT OR REPLACE INTO metadata (name, value) SELECT IIF(name = 'agg_tiles_hash_after_apply', 'agg_tiles_hash', name), value
    FROM patchDb.metadata WHERE name NOTNULL AND name NOT IN ('agg_tiles_hash', 'agg_tiles_hash_before_apply');"

for run in $(seq "$runs"); do
  rm -f p.mbtiles
  measure diff "$bin/tilesync" diff a.mbtiles b.mbtiles --patch p.mbtiles
  cp a.mbtiles base.mbtiles
  measure apply-mbtiles "$bin/tilesync" apply p.mbtiles base.mbtiles
  cp a.mbtiles base.mbtiles
  measure apply-martin-sql sqlite3 base.mbtiles "$martin_sql"
  rm -f copy.mbtiles
  measure copy-cp cp b.mbtiles copy.mbtiles
  measure copy-convert "$bin/tilesync" convert b.mbtiles copy.mbtiles --force
  rm -f copy.mbtiles
  rm -rf base-dir && cp -a a-dir base-dir
  measure apply-dir "$bin/tilesync" apply p.mbtiles base-dir
  rm -rf copy-dir
  measure copy-rsync rsync -a b-dir/ copy-dir/
  rm -rf copy-dir
  cp a.pmtiles base.pmtiles
  measure apply-pmtiles "$bin/tilesync" apply p.mbtiles base.pmtiles
  rm -f copy.pmtiles
  measure copy-pmtiles "$bin/tilesync" convert b.mbtiles copy.pmtiles
  rm -f copy.pmtiles
done
"$bin/tilesync" verify b.mbtiles base.mbtiles --quiet
"$bin/tilesync" verify b-dir base-dir --quiet
"$bin/tilesync" verify b.mbtiles base.pmtiles --quiet
changed=$({ "$bin/tilesync" diff a.mbtiles b.mbtiles --json || true; } | tail -1 | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["added"]+s["replaced"]+s["deleted"], s["bytes_to_write"])')
fs="plain folder"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"

echo
echo "patch benchmark: $tiles tiles, 1% replaced and 0.1% deleted, $(nproc) cores, median of $runs runs, $fs"
echo "(rates are of the whole store: its tiles and bytes over the time, so a patch and a copy compare)"
printf "%-52s %10.1f MB\n" "new store (b.mbtiles)" "$(echo "$store_bytes / 1000000" | bc -l)"
printf "%-52s %10.1f MB  (%s tiles changed)\n" "bytes of the changed tiles" "$(echo "${changed#* } / 1000000" | bc -l)" "${changed% *}"
printf "%-52s %10.1f MB\n" "patch file (p.mbtiles)" "$(echo "$(stat -c %s p.mbtiles) / 1000000" | bc -l)"
printf "%-52s %10.1f MB\n" "patch file, gzip -6" "$(echo "$(gzip -6 -c p.mbtiles | wc -c) / 1000000" | bc -l)"
printf "%-52s %s\n" "tilesync diff --patch (MBTiles -> MBTiles)" "$(report diff "$tiles" "$store_bytes")"
printf "%-52s %s\n" "tilesync apply -> MBTiles (hash checks before, after)" "$(report apply-mbtiles "$tiles" "$store_bytes")"
printf "%-52s %s\n" "martin's apply-patch SQL in sqlite3 (no checks)" "$(report apply-martin-sql "$tiles" "$store_bytes")"
printf "%-52s %s\n" "full copy: cp new.mbtiles" "$(report copy-cp "$tiles" "$store_bytes")"
printf "%-52s %s\n" "full copy: tilesync convert MBTiles -> MBTiles" "$(report copy-convert "$tiles" "$store_bytes")"
printf "%-52s %s\n" "tilesync apply -> folder" "$(report apply-dir "$tiles" "$store_bytes")"
printf "%-52s %s\n" "full copy: rsync -a new folder -> new folder" "$(report copy-rsync "$tiles" "$store_bytes")"
printf "%-52s %s\n" "tilesync apply -> PMTiles (rewrite)" "$(report apply-pmtiles "$tiles" "$store_bytes")"
printf "%-52s %s\n" "full copy: tilesync convert MBTiles -> PMTiles" "$(report copy-pmtiles "$tiles" "$store_bytes")"
rm -rf "$results"
