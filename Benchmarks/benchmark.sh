#!/usr/bin/env bash
# TileSync against its peers, same data, same machine, same run.
#
#   Benchmarks/benchmark.sh [TILES...]        (default: 10000 350000; 1000000 works too)
#
# Environment: RUNS (default 3), KIND=vector|raster (default vector: 3 KB average; raster:
# 20 KB average PNG-like), SYNC=0 to skip the sync benchmark, BENCH_WORK (work folder),
# ONLY=pmtiles for the PMTiles rows alone (MBTiles -> PMTiles against pmtiles-convert,
# PMTiles -> folder next to MBTiles -> folder, random reads through TileSource).
#
# TileSync's writers put the file on disk before they rename it (direct I/O, then fsync);
# pmtiles-convert leaves its output in the page cache, and the benchmark deletes each output
# after its run, so those bytes are never written. The PMTiles rows therefore also time
# pmtiles-convert followed by `sync` (both outputs on disk when the clock stops) and `dd` of
# the archive with direct I/O: the disk's write speed in that run, the floor of any writer.
#
# For each size: generates a deterministic MBTiles (40% repeated blobs), then runs each
# operation with TileSync and with the peer doing the same job, alternating, RUNS times, and
# prints the median wall time, tiles/s, MB/s, peak RSS and the ratio to the peer (of the medians,
# and of each tool's best run); then runs
# Benchmarks/sync-benchmark.sh (no-op and 1%-changed sync against rsync) on the same size.
#
# File system: ext4 without a journal (as on some VMs) makes creating files soon after deleting
# many much slower, which would measure an artefact. Run as root, the benchmark therefore
# works in a journaled ext4 image loop-mounted at BENCH_WORK (sparse, deleted at the end), and
# deletes each output at once; otherwise every run writes into fresh folders, kept until the
# size is done. Release build. Needs mb-util and pmtiles (pip), GNU tar, bsdtar
# (libarchive-tools), rsync, sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 350000)
runs=${RUNS:-3}
kind=${KIND:-vector}
work=${BENCH_WORK:-/tmp/tilesync-bench}
image=${BENCH_IMAGE:-/var/tmp/tilesync-bench.img}
for tool in mb-util pmtiles-convert bsdtar sqlite3 tar rsync; do
  command -v "$tool" >/dev/null || { echo "needs $tool (pip install mbutil pmtiles; apt-get install libarchive-tools sqlite3 rsync)" >&2; exit 1; }
done
. Benchmarks/release-build.sh
ext=pbf; [ "$kind" = raster ] && ext=png

. Benchmarks/loop-work.sh
trap loop_work_unmount EXIT

report() { # NAME TILES BYTES: median of $work/NAME.times
  sort -n "$results/$1.times" | awk -v tiles="$2" -v bytes="$3" '{t[NR]=$1; m[NR]=$2} END {
    i=int((NR+1)/2); printf "%8.2f s %10.0f tiles/s %8.1f MB/s %7.1f MB", t[i], tiles/t[i], bytes/t[i]/1e6, m[i]/1024 }'
}
median() { sort -n "$results/$1.times" | awk '{t[NR]=$1} END {print t[int((NR+1)/2)]}'; }
best() { sort -n "$results/$1.times" | head -1 | awk '{print $1}'; }
measure() { # NAME COMMAND...
  local name=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$results/$name.one" "$@" >/dev/null 2>"$results/$name.err" \
    || { echo "FAILED: $name: $*" >&2; tail -5 "$results/$name.err" >&2; df -h "$work" >&2; return 1; }
  cat "$results/$name.one" >> "$results/$name.times"
  rm -f "$work"/*-[0-9]*.mbtiles "$work"/*-[0-9]*.tar "$work"/*-[0-9]*.pmtiles
  # On the journaled loop file system, outputs go at once; elsewhere folders stay until the size is done.
  if [ "$loop" = 1 ]; then rm -rf "$work"/*-[0-9]; fi
}

for tiles in "${sizes[@]}"; do
  results=$(mktemp -d /tmp/tilesync-bench-results.XXXXXX)
  average=3000; [ "$kind" = raster ] && average=20000
  # The run keeps up to six trees of small files at once.
  loop_work_mount $(( tiles * average * 12 + (4 << 30) ))
  cd "$work"
  echo "== $tiles tiles ($kind): generating" >&2
  "$bin/tilesync-benchmark" generate --tiles "$tiles" --kind "$kind" --out a.mbtiles
  "$bin/tilesync" convert a.mbtiles tree --quiet
  tar -cf tree.tar -C tree .
  bytes=$(sqlite3 a.mbtiles "select sum(length(tile_data)) from tiles")
  "$bin/tilesync" convert a.mbtiles a.pmtiles --quiet
  only=${ONLY:-all}
  for run in $(seq "$runs"); do
    echo "   run $run" >&2
    measure pmtiles-tilesync "$bin/tilesync" convert a.mbtiles "pm-ts-$run.pmtiles" --quiet
    measure pmtiles-convert pmtiles-convert a.mbtiles "pm-$run.pmtiles"
    measure pmtiles-convert-sync sh -c "pmtiles-convert a.mbtiles pm-sync-$run.pmtiles && sync"
    measure floor-write-pmtiles dd if=a.pmtiles of="floor-$run.pmtiles" bs=1M oflag=direct conv=fsync status=none
    measure pmtiles-folder-tilesync "$bin/tilesync" convert a.pmtiles "pm-export-$run" --quiet
    measure export-tilesync "$bin/tilesync" convert a.mbtiles "export-ts-$run" --quiet
    "$bin/tilesync-benchmark" random-reads --store a.mbtiles --reads 300000 >> "$results/reads-mbtiles.txt"
    "$bin/tilesync-benchmark" random-reads --store a.pmtiles --reads 300000 >> "$results/reads-pmtiles.txt"
    [ "$only" = pmtiles ] && continue
    measure floor-sqlite sqlite3 a.mbtiles "select sum(length(tile_data)) from (select tile_data from tiles)"
    measure floor-cat sh -c "find tree -type f -name '*.$ext' -print0 | xargs -0 cat > /dev/null"
    measure floor-cp cp a.mbtiles "cp-$run.mbtiles"
    measure export-mbutil mb-util --silent --image_format=$ext a.mbtiles "export-mu-$run"
    mkdir "untar-$run" && measure unpack-gnutar tar -xf tree.tar -C "untar-$run"
    measure import-tilesync "$bin/tilesync" convert tree "import-ts-$run.mbtiles" --quiet
    measure import-mbutil mb-util --silent --image_format=$ext tree "import-mu-$run.mbtiles"
    measure mbtiles-tar-tilesync "$bin/tilesync" convert a.mbtiles "ts-$run.tar" --quiet
    measure mbtiles-tar-mbutil-tar sh -c "mb-util --silent --image_format=$ext a.mbtiles mu-tree-$run && tar -cf mu-$run.tar -C mu-tree-$run ."
    measure folder-tar-tilesync "$bin/tilesync" convert tree "tree-ts-$run.tar" --quiet
    measure folder-tar-gnutar tar -cf "tree-gnu-$run.tar" -C tree .
    measure folder-tar-bsdtar bsdtar -cf "tree-bsd-$run.tar" -C tree .
    measure folder-tar-gnutar-sync sh -c "tar -cf tree-gnus-$run.tar -C tree . && sync"
    measure tar-folder-tilesync "$bin/tilesync" convert tree.tar "tar-ts-$run" --quiet
    measure normalized-tilesync "$bin/tilesync" convert a.mbtiles "norm-$run.mbtiles" --mbtiles-schema normalized --quiet
    measure full-rsync rsync -a tree/ "rsync-$run"
    measure full-tilesync "$bin/tilesync" sync tree "sync-$run" --quiet
  done
  cd "$repo"
  rm -rf "$work"/*-[0-9]
  echo
  fs="fresh folders on $(df --output=fstype . | tail -1)"; [ "$loop" = 1 ] && fs="journaled ext4 image, loop-mounted"
  echo "== $tiles $kind tiles, $(awk "BEGIN {printf \"%.0f\", $bytes/1e6}") MB of tiles, $(nproc) cores, median of $runs runs, $fs"
  row() { # LABEL NAME PEER: the ratio of the medians, and of the best runs (this VM spreads a lot)
    local ratio
    ratio=$(awk -v a="$(median "$2")" -v b="$(median "$3")" -v c="$(best "$2")" -v d="$(best "$3")" \
      'BEGIN {printf "%.2fx (best runs %.2fx)", b/a, d/c}')
    printf "%-44s %s  %s vs %s\n" "$1" "$(report "$2" "$tiles" "$bytes")" "$ratio" "$3"
  }
  row "MBTiles -> PMTiles: tilesync" pmtiles-tilesync pmtiles-convert
  printf "%-44s %s\n" "MBTiles -> PMTiles: pmtiles-convert" "$(report pmtiles-convert "$tiles" "$bytes")"
  row "MBTiles -> PMTiles: tilesync, both on disk" pmtiles-tilesync pmtiles-convert-sync
  printf "%-44s %s\n" "MBTiles -> PMTiles: pmtiles-convert + sync" "$(report pmtiles-convert-sync "$tiles" "$bytes")"
  printf "%-44s %s\n" "floor: dd of the archive to disk (direct)" "$(report floor-write-pmtiles "$tiles" "$bytes")"
  for name in pmtiles-tilesync pmtiles-convert; do # each run, in order: this VM's spread shows
    printf "%-44s %s\n" "  runs of $name (s)" "$(cut -d' ' -f1 "$results/$name.times" | tr '\n' ' ')"
  done
  row "PMTiles -> folder: tilesync" pmtiles-folder-tilesync export-tilesync
  printf "%-44s %s\n" "MBTiles -> folder: tilesync (for the above)" "$(report export-tilesync "$tiles" "$bytes")"
  printf "%-44s %s\n" "random reads, TileSource on MBTiles" "$(sort -n "$results/reads-mbtiles.txt" | awk '{r[NR]=$1} END {print r[int((NR+1)/2)] " reads/s"}')"
  printf "%-44s %s\n" "random reads, TileSource on PMTiles" "$(sort -n "$results/reads-pmtiles.txt" | awk '{r[NR]=$1} END {print r[int((NR+1)/2)] " reads/s"}')"
  if [ "$only" = pmtiles ]; then rm -rf "$results"; continue; fi
  printf "%-44s %s\n" "floor: sqlite3 reads every blob" "$(report floor-sqlite "$tiles" "$bytes")"
  printf "%-44s %s\n" "floor: cat every file of the tree" "$(report floor-cat "$tiles" "$bytes")"
  printf "%-44s %s\n" "floor: cp of the MBTiles file" "$(report floor-cp "$tiles" "$bytes")"
  row "MBTiles -> folder: tilesync" export-tilesync export-mbutil
  row "MBTiles -> folder: tilesync vs GNU tar -x" export-tilesync unpack-gnutar
  printf "%-44s %s\n" "MBTiles -> folder: mb-util" "$(report export-mbutil "$tiles" "$bytes")"
  printf "%-44s %s\n" "tar -x of the same tree (GNU tar)" "$(report unpack-gnutar "$tiles" "$bytes")"
  row "folder -> MBTiles: tilesync" import-tilesync import-mbutil
  printf "%-44s %s\n" "folder -> MBTiles: mb-util" "$(report import-mbutil "$tiles" "$bytes")"
  row "MBTiles -> tar: tilesync" mbtiles-tar-tilesync mbtiles-tar-mbutil-tar
  printf "%-44s %s\n" "MBTiles -> tar: mb-util then tar -cf" "$(report mbtiles-tar-mbutil-tar "$tiles" "$bytes")"
  row "folder -> tar: tilesync vs GNU tar -cf" folder-tar-tilesync folder-tar-gnutar
  row "folder -> tar: tilesync vs bsdtar -cf" folder-tar-tilesync folder-tar-bsdtar
  printf "%-44s %s\n" "folder -> tar: GNU tar -cf" "$(report folder-tar-gnutar "$tiles" "$bytes")"
  printf "%-44s %s\n" "folder -> tar: bsdtar -cf" "$(report folder-tar-bsdtar "$tiles" "$bytes")"
  printf "%-44s %s\n" "folder -> tar: GNU tar -cf, then sync" "$(report folder-tar-gnutar-sync "$tiles" "$bytes")"
  row "tar -> folder: tilesync vs GNU tar -x" tar-folder-tilesync unpack-gnutar
  row "MBTiles -> normalized MBTiles (dedup)" normalized-tilesync pmtiles-convert
  row "folder -> new folder: tilesync sync vs rsync" full-tilesync full-rsync
  printf "%-44s %s\n" "folder -> new folder: rsync -a" "$(report full-rsync "$tiles" "$bytes")"
  rm -rf "$results"
  if [ "${SYNC:-1}" = 1 ]; then
    cd "$repo" && Benchmarks/sync-benchmark.sh "$tiles" "$work/sync"
  fi
done
