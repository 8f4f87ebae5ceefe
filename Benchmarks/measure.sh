# Sourced by the benchmarks: timing of one command into $results, and the median of its runs.

# measure NAME COMMAND...: appends "seconds peak_kb" of one run to $results/NAME.times; on
# failure prints the command's stderr and the free space, and fails.
measure() {
  local name=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$results/$name.one" "$@" >/dev/null 2>"$results/$name.err" || {
    echo "FAILED: $name: $*" >&2; cat "$results/$name.err" >&2; df -h . >&2; return 1; }
  cat "$results/$name.one" >> "$results/$name.times"
}

# report NAME TILES BYTES: the median run's wall time, TILES/s, BYTES/s in MB/s, peak RSS.
report() {
  sort -n "$results/$1.times" | awk -v tiles="$2" -v bytes="$3" '{t[NR]=$1; m[NR]=$2} END {
    i=int((NR+1)/2); s=t[i] > 0 ? t[i] : 0.01
    printf "%8.2f s %10.0f tiles/s %8.1f MB/s %7.1f MB", t[i], tiles/s, bytes/s/1e6, m[i]/1024 }'
}

# median NAME: the median run's wall time in seconds.
median() { sort -n "$results/$1.times" | awk '{t[NR]=$1} END {print t[int((NR+1)/2)]}'; }
