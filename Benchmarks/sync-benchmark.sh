#!/usr/bin/env bash
# Sync benchmark: no-op and 1%-changed syncs of a generated store, folder -> folder next to
# `rsync -a` of the same trees, and MBTiles -> MBTiles. Release build; alternating runs; prints
# the median wall time and peak RSS of each.
#
#   Benchmarks/sync-benchmark.sh [TILES] [WORKDIR]     (defaults: 350000, /tmp/tilesync-sync-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles=${1:-350000}
work=${2:-/tmp/tilesync-sync-bench}
runs=3
command -v rsync >/dev/null || { echo "needs rsync (apt-get install rsync)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; }
swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
rm -rf "$work" && mkdir -p "$work"
cd "$work"

echo "generating $tiles tiles ..." >&2
"$bin/tilesync-benchmark" generate --tiles "$tiles" --out a.mbtiles
"$bin/tilesync" convert a.mbtiles a-dir --quiet
"$bin/tilesync" sync a-dir b-dir --quiet
rsync -a a-dir/ r-dir/
"$bin/tilesync" sync a.mbtiles b.mbtiles --quiet

# measure NAME COMMAND...: appends "seconds peak_kb" to $work/NAME.times
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/$name.one" "$@" >/dev/null 2>&1
  cat "$work/$name.one" >> "$work/$name.times"
}
median() { sort -n "$work/$1.times" | awk '{t[NR]=$1; m[NR]=$2} END {i=int((NR+1)/2); printf "%8.2f s  %6.1f MB", t[i], m[i]/1024}'; }

# change_dir SEED: rewrites 1% of the files of a-dir with new bytes
change_dir() {
  python3 - "$1" <<'PY'
import os, random, sys
random.seed(int(sys.argv[1]))
files = []
for root, dirs, names in os.walk("a-dir"):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    files += [os.path.join(root, n) for n in names if n.endswith(".pbf")]
files.sort()
for path in random.sample(files, max(1, len(files) // 100)):
    with open(path, "wb") as f:
        f.write(b"\x1f\x8b\x08\x00" + random.randbytes(random.randint(500, 5000)))
PY
}
# change_mbtiles SEED: rewrites 1% of the tiles of a.mbtiles
change_mbtiles() {
  sqlite3 a.mbtiles "UPDATE tiles SET tile_data = x'1f8b0800' || randomblob(abs(random()) % 4500 + 500)
                     WHERE rowid IN (SELECT rowid FROM tiles ORDER BY random() LIMIT (SELECT count(*) / 100 FROM tiles));"
}

for run in $(seq $runs); do
  measure noop-rsync rsync -a a-dir/ r-dir/
  measure noop-tilesync-dir "$bin/tilesync" sync a-dir b-dir --quiet
  measure noop-tilesync-mbtiles "$bin/tilesync" sync a.mbtiles b.mbtiles --quiet
  change_dir "$run"
  measure change-rsync rsync -a a-dir/ r-dir/
  measure change-tilesync-dir "$bin/tilesync" sync a-dir b-dir --quiet
  change_mbtiles
  measure change-tilesync-mbtiles "$bin/tilesync" sync a.mbtiles b.mbtiles --quiet
done
"$bin/tilesync" verify a-dir b-dir --quiet
"$bin/tilesync" verify a.mbtiles b.mbtiles --quiet

echo
echo "sync benchmark: $tiles tiles, $(nproc) cores, median of $runs runs (wall time, peak RSS)"
printf "%-44s %s\n" "no-op: rsync -a folder -> folder" "$(median noop-rsync)"
printf "%-44s %s\n" "no-op: tilesync sync folder -> folder" "$(median noop-tilesync-dir)"
printf "%-44s %s\n" "no-op: tilesync sync MBTiles -> MBTiles" "$(median noop-tilesync-mbtiles)"
printf "%-44s %s\n" "1% changed: rsync -a folder -> folder" "$(median change-rsync)"
printf "%-44s %s\n" "1% changed: tilesync sync folder -> folder" "$(median change-tilesync-dir)"
printf "%-44s %s\n" "1% changed: tilesync sync MBTiles -> MBTiles" "$(median change-tilesync-mbtiles)"
