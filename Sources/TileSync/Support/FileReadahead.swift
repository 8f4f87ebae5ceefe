import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Brings a file into the page cache front to back, on a thread of its own, for a reader that
/// jumps across it (an MBTiles read in tile-ID order): from a cold cache each jump waits for the
/// disk, while the kernel reads a file front to back at the disk's full speed.
///
/// Linux only: `posix_fadvise(POSIX_FADV_WILLNEED)`, which starts the reads without copying
/// anything to the process (pages already cached cost a lookup), in calls no larger than the
/// kernel takes at once (the device's readahead size), 8 MiB steps at most two ahead of what
/// has arrived (a one-byte read of a step's last page waits for it), so that a read of the
/// conversion's own does not queue behind the whole file. Only for a file that takes at most
/// half of the memory the kernel reports available (`MemAvailable`), so that it does not push
/// out what it brought in. Advisory: failures are ignored.
final class FileReadahead: Sendable {
    /// Bytes per step (several calls of `readaheadBytes(device:)`); `stop()` takes effect
    /// between steps.
    static let stepBytes = 8 << 20
    /// Steps asked for and not yet arrived: enough to keep the disk busy, few enough that a
    /// read of the conversion's own does not wait behind the whole file.
    static let stepsInFlight = 2
    /// Files smaller than this are left to the kernel's own readahead.
    static let minimumBytes = 64 << 20

    /// Shared with the thread, which must not hold `self`: dropping the last reference stops it.
    private let isStopped = StopFlag()

    /// Starts reading `path` ahead, or returns nil: not Linux, a file that is small, cannot be
    /// opened, or would not fit in half the available memory.
    init?(path: String) {
        #if os(Linux)
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) >= Self.minimumBytes,
              let available = Self.availableMemoryBytes(), Int(status.st_size) <= available / 2 else {
            close(descriptor)
            return nil
        }
        let size = Int(status.st_size)
        let call = Self.readaheadBytes(device: UInt64(status.st_dev))
        let thread = Thread { [isStopped] in
            var requested = 0
            var arrived = 0
            var byte: UInt8 = 0
            while arrived < size, !isStopped.value.load(ordering: .relaxed) {
                while requested < size, requested - arrived < Self.stepsInFlight * Self.stepBytes {
                    for offset in stride(from: requested, to: min(requested + Self.stepBytes, size), by: call) {
                        _ = posix_fadvise(descriptor, off_t(offset), off_t(call), POSIX_FADV_WILLNEED)
                    }
                    requested += Self.stepBytes
                }
                let last = min(arrived + Self.stepBytes, size) - 1
                guard retryingOnInterrupt({ pread(descriptor, &byte, 1, off_t(last)) }) == 1 else { break }
                arrived += Self.stepBytes
            }
            close(descriptor)
        }
        thread.stackSize = 64 << 10
        thread.start()
        #else
        return nil
        #endif
    }

    deinit {
        stop()
    }

    /// Asks for no more (what was asked for may still arrive); does not wait.
    func stop() {
        isStopped.value.store(true, ordering: .relaxed)
    }

    /// The most one `POSIX_FADV_WILLNEED` call reads on the device `device` (Linux caps it at the
    /// device's readahead, `/sys/class/bdi/MAJOR:MINOR/read_ahead_kb`), 128 KiB to one step;
    /// 128 KiB when unknown.
    static func readaheadBytes(device: UInt64) -> Int {
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let path = "/sys/class/bdi/\(major):\(minor)/read_ahead_kb"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return 128 << 10 }
        return min(max(kilobytes, 128), stepBytes >> 10) << 10
    }

    private final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// `MemAvailable` of `/proc/meminfo` in bytes, nil when it cannot be read.
    static func availableMemoryBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
            return kilobytes.multipliedReportingOverflow(by: 1024).overflow ? nil : kilobytes * 1024
        }
        return nil
    }
}
