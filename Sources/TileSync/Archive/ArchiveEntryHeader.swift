#if canImport(CTileSyncArchive)
/// What a tar entry's header says, before its data is read.
struct ArchiveEntryHeader {
    enum Kind: Equatable {
        case regularFile
        case directory
        case symbolicLink(target: String)
        case hardLink(target: String)
        /// Devices, FIFOs, sockets.
        case other
    }

    let path: String
    let kind: Kind
    /// Declared data size in bytes, or nil when the header does not give it.
    let size: Int64?
    /// Modification time, seconds since 1970.
    let modificationTime: Int
}
#endif
