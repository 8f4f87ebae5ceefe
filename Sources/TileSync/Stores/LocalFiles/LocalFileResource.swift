import Foundation

/// The file or folder behind a file-backed store (MBTiles, folder, tar): existence, stamps,
/// the same-file check, where the sync state lives, and the clean-up of killed runs. The kind
/// adds how to recover its own interrupted updates.
struct LocalFileResource: TileStoreLocation.Resource {
    /// The path.
    let path: String
    /// The store is a folder: its sync state lives inside it, and it has no version stamp (its
    /// own time does not change when a file deep inside does).
    let isFolder: Bool
    /// Completes or rolls back an interrupted update of the store at a path.
    let recover: (@Sendable (String) throws(TileStoreError) -> Void)?

    init(path: String, isFolder: Bool, recover: (@Sendable (String) throws(TileStoreError) -> Void)? = nil) {
        self.path = path
        self.isFolder = isFolder
        self.recover = recover
    }

    var exists: Bool { AtomicFile.exists(path) }

    var identity: String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    var versionStamp: String? {
        isFolder ? nil : FileStamp(path: path)?.description
    }

    /// `FOLDER/.tilesync-state` inside a folder, `.NAME.tilesync-state` beside a file.
    var syncStatePath: String? {
        if isFolder { return path + "/" + Self.stateName }
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + Self.stateName).path
    }

    /// The name of a sync state in a folder (and the suffix of one beside a file).
    static let stateName = ".tilesync-state"

    /// `.NAME.tilesync-downloads` beside the file or folder (a folder a conversion creates does
    /// not exist before it is complete).
    var downloadStatePath: String? {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + Self.downloadsName).path
    }

    /// The suffix of a download state's name.
    static let downloadsName = ".tilesync-downloads"

    /// The same inode (another path to the file, a hard link) or the same canonical path.
    func refersToSameStore(as other: any TileStoreLocation.Resource) -> Bool {
        guard let other = other as? LocalFileResource else { return identity == other.identity }
        var a = stat(), b = stat()
        if stat(path, &a) == 0 && stat(other.path, &b) == 0 { return a.st_dev == b.st_dev && a.st_ino == b.st_ino }
        return path == other.path || identity == other.identity
    }

    func removeStaleTemporaries() {
        AtomicFile.removeStaleTemporaries(of: path)
    }

    /// A folder takes whole blocks per tile file; a file (MBTiles, tar, PMTiles) the tile bytes
    /// and about 64 bytes of index, header or padding per tile.
    func space(forTiles tiles: Int, tileBytes: Int) -> (needed: Int, available: Int)? {
        guard let free = FreeSpace(near: path) else { return nil }
        func product(_ a: Int, _ b: Int) -> Int { a.multipliedReportingOverflow(by: b).overflow ? Int.max : a * b }
        guard isFolder else {
            let (sum, overflow) = tileBytes.addingReportingOverflow(product(tiles, 64))
            return (overflow ? Int.max : sum, free.availableBytes)
        }
        let mean = tiles > 0 ? tileBytes / tiles : 0
        let blocksPerFile = max(1, mean / free.blockSize + (mean % free.blockSize == 0 ? 0 : 1))
        return (product(tiles, product(blocksPerFile, free.blockSize)), free.availableBytes)
    }

    func removeOwnTemporaries() {
        AtomicFile.removeOwnTemporaries(of: path)
    }

    func removeStore() {
        AtomicFile.remove(path)
    }

    func recoverInterruptedUpdate() throws(TileStoreError) {
        guard exists, let recover else { return }
        try recover(path)
    }
}
