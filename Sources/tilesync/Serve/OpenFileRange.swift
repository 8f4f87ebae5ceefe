import Foundation

/// A byte range of a file opened for one response: the descriptor is closed when the range is
/// dropped unless `takeDescriptor()` handed it to the server (which closes it after sending).
/// Opening first and measuring the open file keeps one response to one version of a file that
/// a sync replaces meanwhile.
final class OpenFileRange: @unchecked Sendable {
    let offset: UInt64
    let length: UInt64
    private var descriptor: Int32

    init(descriptor: Int32, offset: UInt64, length: UInt64) {
        self.descriptor = descriptor
        self.offset = offset
        self.length = length
    }

    /// The descriptor, now owned by the caller; -1 when already taken.
    func takeDescriptor() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
