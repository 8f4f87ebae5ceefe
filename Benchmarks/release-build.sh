# Sourced by the benchmarks (from the package root): builds tilesync and tilesync-benchmark in
# release mode and sets $bin (their folder) and $repo (the package root).
swift build -c release --product tilesync >&2
swift build -c release --product tilesync-benchmark >&2
bin=$(swift build -c release --show-bin-path)
repo=$(pwd)
