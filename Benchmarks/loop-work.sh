# Sourced by the benchmarks: a journaled ext4 image loop-mounted at $work, where file creation
# after mass deletes is not 10-25x slower as on the root file system (ext4 without a journal).
# Used when run as root with mkfs.ext4 and BENCH_LOOP is not 0 ($loop=1); else $work is a folder.
# Needs $work and $image set; the caller traps EXIT to call loop_work_unmount.
loop=0
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null && [ "${BENCH_LOOP:-1}" = 1 ]; then loop=1; fi
device=""

# loop_work_unmount: unmounts $work and deletes the image (nothing without a loop).
loop_work_unmount() {
  if [ "$loop" = 1 ]; then
    cd /; umount "$work" 2>/dev/null || true
    [ -n "$device" ] && losetup -d "$device" 2>/dev/null || true
    device=""; rm -f "$image"
  fi
}

# loop_work_mount BYTES: a fresh, sparse image of BYTES mounted at $work (one inode per 4 KiB,
# direct I/O on the loop device so its pages are not cached twice); without a loop, an empty $work.
loop_work_mount() {
  if [ "$loop" = 1 ]; then
    loop_work_unmount; mkdir -p "$work"
    truncate -s "$1" "$image"
    # Sparse, but blocks freed inside are not given back: it can grow to its full size.
    local free
    free=$(df -B1 --output=avail "$(dirname "$image")" | tail -1)
    if [ "$free" -lt "$1" ]; then
      echo "warning: $image may grow to $(( $1 >> 30 )) GiB; $(( free >> 30 )) GiB free: runs may fail for want of space" >&2
    fi
    mkfs.ext4 -q -F -i 4096 -E nodiscard "$image"
    device=$(losetup -f --show --direct-io=on "$image") && mount "$device" "$work"
  else
    rm -rf "$work" && mkdir -p "$work"
  fi
}
