public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tile kept in a file of its own (a folder tree), open for reading but not read: a server can
/// send it from the descriptor (sendfile) and know it again by its identity without reading it.
/// The descriptor is closed when this is released, unless `takeDescriptor()` handed it over.
public final class TileFile {
    /// What `fstat` says identifies the file's content: device, inode, size, modification and
    /// status-change times (ns since 1970). A write to the file, a rename over it or a new file
    /// under its name changes it; two equal identities hold the same bytes.
    public struct Identity: Hashable, Sendable {
        public let device: UInt64
        public let inode: UInt64
        /// Bytes.
        public let size: Int
        public let modificationTime: Int64
        public let changeTime: Int64
    }

    public let identity: Identity
    /// The store and the file (its path inside the store), as errors name them.
    let store: String
    let relativePath: String
    private var descriptor: Int32

    init(descriptor: Int32, status: stat, store: String, relativePath: String) {
        self.descriptor = descriptor
        self.store = store
        self.relativePath = relativePath
        #if canImport(Darwin)
        let changed = Int64(status.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(status.st_ctimespec.tv_nsec)
        #else
        let changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        #endif
        identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int(status.st_size),
                            modificationTime: FileTime.modificationTime(of: status), changeTime: changed)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The file's size in bytes when it was opened.
    public var size: Int { identity.size }

    /// The file's bytes (its first `size` bytes; fewer when it shrank since it was opened).
    /// - Throws: `TileStoreError` (`.invalidTile`, naming the file) when it cannot be read, or
    ///   `.invalidTile` when the descriptor was handed over.
    public func bytes() throws -> Data {
        let item = "file " + relativePath
        guard descriptor >= 0 else { throw TileStoreError(.invalidTile, store: store, item: item, message: "the file was handed over") }
        do {
            return try FileBytes.contents(of: descriptor, size: size, path: store + "/" + relativePath)
        } catch {
            throw TileStoreError(.invalidTile, store: store, item: item, message: error.description)
        }
    }

    /// Hands the open descriptor over (the caller closes it); -1 when it was handed over before.
    public func takeDescriptor() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }
}
