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

    /// A store whose tiles are files and its layout, shared by the files opened from it (opening
    /// one copies a single reference); a file's path is written out only when an error names it.
    final class Layout: Sendable {
        let store: String
        let template: PathTemplate

        init(store: String, template: PathTemplate) {
            self.store = store
            self.template = template
        }
    }

    public let identity: Identity
    /// The store, its layout and the tile, which name the file in errors.
    let layout: Layout
    let coordinate: TileCoordinate
    let fileExtension: String
    private var descriptor: Int32

    init(descriptor: Int32, status: stat, layout: Layout, coordinate: TileCoordinate, fileExtension: String) {
        self.descriptor = descriptor
        self.layout = layout
        self.coordinate = coordinate
        self.fileExtension = fileExtension
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

    /// The file's path inside its store.
    var relativePath: String { layout.template.path(for: coordinate, fileExtension: fileExtension) }

    /// The file's size in bytes when it was opened.
    public var size: Int { identity.size }

    /// The file's bytes (its first `size` bytes; fewer when it shrank since it was opened).
    /// - Throws: `TileStoreError` (`.invalidTile`, naming the file) when it cannot be read, or
    ///   `.invalidTile` when the descriptor was handed over.
    public func bytes() throws -> Data {
        guard descriptor >= 0 else {
            throw TileStoreError(.invalidTile, store: layout.store, item: "file " + relativePath, message: "the file was handed over")
        }
        do {
            return try FileBytes.contents(of: descriptor, size: size, path: layout.store + "/" + relativePath)
        } catch {
            throw TileStoreError(.invalidTile, store: layout.store, item: "file " + relativePath, message: error.description)
        }
    }

    /// Hands the open descriptor over (the caller closes it); -1 when it was handed over before.
    public func takeDescriptor() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }
}
