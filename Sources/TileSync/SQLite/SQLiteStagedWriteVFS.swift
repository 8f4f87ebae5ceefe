import CTileSyncSQLite
import Foundation

/// An SQLite VFS over the default one, for a database file nobody else opens while it is
/// written (a new MBTiles under its temporary name, journaling off): the main database's page
/// writes go to a `SQLiteStagedFile`, whose thread does the copy into the page cache (or the
/// direct write) beside SQLite's own work instead of inside each insert. A read of a range still
/// staged, syncs, truncation, size queries and closing wait for the staged writes first, so
/// SQLite always reads back what it wrote, and a failed write fails the next call (`SQLITE_FULL` for a full disk,
/// else `SQLITE_IOERR`). SQLite ignores what closing a file returns, and with `synchronous = OFF`
/// a commit does not sync: a caller calls `SQLiteConnection.writeStagedPages()` after its last
/// commit, which reports the failure of any staged write. Other files of the connection, and a
/// main file that cannot be opened a second time, pass straight through.
///
/// Each file of this VFS is laid out as its `sqlite3_file` header (our methods), the staged
/// file's pointer, then the default VFS's own file structure.
enum SQLiteStagedWriteVFS {
    /// The VFS name to pass to `sqlite3_open_v2`, registered on first use; nil when SQLite has no
    /// default VFS to wrap.
    static let name: String? = register()

    private static let registeredName = "tilesync-staged-writes"
    private static let stateOffset = MemoryLayout<sqlite3_file>.stride
    private static let realFileOffset = stateOffset + MemoryLayout<UnsafeMutableRawPointer?>.stride

    /// The default VFS this one wraps (set once by `register()`, read by the callbacks).
    nonisolated(unsafe) private static var base: UnsafeMutablePointer<sqlite3_vfs>?

    nonisolated(unsafe) private static let methods: UnsafeMutablePointer<sqlite3_io_methods> = makeMethods()

    private static func register() -> String? {
        SQLiteLibrary.prepare()
        guard let found = sqlite3_vfs_find(nil) else { return nil }
        base = found
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: found.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.szOsFile = Int32(realFileOffset) + found.pointee.szOsFile
        vfs.pointee.zName = UnsafePointer(strdup(registeredName))
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in
            guard let file, let base = SQLiteStagedWriteVFS.base, let open = base.pointee.xOpen else { return SQLITE_CANTOPEN }
            file.pointee.pMethods = nil
            SQLiteStagedWriteVFS.setState(nil, of: file)
            let real = SQLiteStagedWriteVFS.realFile(file)
            let result = open(base, name, real, flags, outFlags)
            guard result == SQLITE_OK else { return result }
            if flags & SQLITE_OPEN_MAIN_DB != 0, flags & SQLITE_OPEN_READWRITE != 0, let name,
               let staged = try? SQLiteStagedFile(path: String(cString: name)) {
                SQLiteStagedWriteVFS.setState(Unmanaged.passRetained(staged).toOpaque(), of: file)
            }
            file.pointee.pMethods = UnsafePointer(SQLiteStagedWriteVFS.methods)
            return SQLITE_OK
        }
        guard sqlite3_vfs_register(vfs, 0) == SQLITE_OK else { return nil }
        return registeredName
    }

    private static func makeMethods() -> UnsafeMutablePointer<sqlite3_io_methods> {
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: sqlite3_io_methods())
        methods.pointee.iVersion = 1
        setStagingMethods(methods)
        setForwardingMethods(methods)
        return methods
    }

    /// Close, read and write: the methods that stage, or wait for what is staged.
    private static func setStagingMethods(_ methods: UnsafeMutablePointer<sqlite3_io_methods>) {
        methods.pointee.xClose = { file in
            guard let file else { return SQLITE_OK }
            let context = SQLiteStagedWriteVFS.state(of: file)
            SQLiteStagedWriteVFS.setState(nil, of: file)
            let staged = context.map { Unmanaged<SQLiteStagedFile>.fromOpaque($0).takeRetainedValue() }
            var result = SQLITE_OK
            do { try staged?.finish() } catch { result = SQLiteStagedWriteVFS.resultCode(error) }
            let real = SQLiteStagedWriteVFS.realFile(file)
            if let close = real.pointee.pMethods?.pointee.xClose {
                let closed = close(real)
                if result == SQLITE_OK { result = closed }
            }
            do { try staged?.closeDescriptor() } catch { if result == SQLITE_OK { result = SQLiteStagedWriteVFS.resultCode(error) } }
            return result
        }
        methods.pointee.xRead = { file, buffer, amount, offset in
            guard let file else { return SQLITE_IOERR }
            if let staged = SQLiteStagedWriteVFS.stagedFile(file) {
                do {
                    try staged.prepareRead(Int(offset)..<Int(offset) + Int(max(amount, 0)))
                } catch {
                    return SQLiteStagedWriteVFS.resultCode(error)
                }
            }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xRead?(real, buffer, amount, offset) ?? SQLITE_IOERR
        }
        methods.pointee.xWrite = { file, buffer, amount, offset in
            guard let file else { return SQLITE_IOERR }
            if let staged = SQLiteStagedWriteVFS.stagedFile(file) {
                do {
                    try staged.write(UnsafeRawBufferPointer(start: buffer, count: Int(amount)), at: Int(offset))
                    return SQLITE_OK
                } catch {
                    return SQLiteStagedWriteVFS.resultCode(error)
                }
            }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xWrite?(real, buffer, amount, offset) ?? SQLITE_IOERR
        }
    }

    /// The other methods: the default VFS's, after the staged writes where they need them.
    private static func setForwardingMethods(_ methods: UnsafeMutablePointer<sqlite3_io_methods>) {
        methods.pointee.xTruncate = { file, size in
            SQLiteStagedWriteVFS.afterStagedWrites(file) { real in real.pointee.pMethods?.pointee.xTruncate?(real, size) }
        }
        methods.pointee.xSync = { file, flags in
            SQLiteStagedWriteVFS.afterStagedWrites(file) { real in real.pointee.pMethods?.pointee.xSync?(real, flags) }
        }
        methods.pointee.xFileSize = { file, size in
            SQLiteStagedWriteVFS.afterStagedWrites(file) { real in real.pointee.pMethods?.pointee.xFileSize?(real, size) }
        }
        methods.pointee.xLock = { file, lock in
            guard let file else { return SQLITE_IOERR }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xLock?(real, lock) ?? SQLITE_IOERR
        }
        methods.pointee.xUnlock = { file, lock in
            guard let file else { return SQLITE_IOERR }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xUnlock?(real, lock) ?? SQLITE_IOERR
        }
        methods.pointee.xCheckReservedLock = { file, reserved in
            guard let file else { return SQLITE_IOERR }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xCheckReservedLock?(real, reserved) ?? SQLITE_IOERR
        }
        methods.pointee.xFileControl = { file, operation, argument in
            guard let file else { return SQLITE_NOTFOUND }
            if operation == SQLITE_FCNTL_SIZE_HINT {
                let failed = SQLiteStagedWriteVFS.writeStaged(file)
                guard failed == SQLITE_OK else { return failed }
            }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xFileControl?(real, operation, argument) ?? SQLITE_NOTFOUND
        }
        methods.pointee.xSectorSize = { file in
            guard let file else { return 4096 }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xSectorSize?(real) ?? 4096
        }
        methods.pointee.xDeviceCharacteristics = { file in
            guard let file else { return 0 }
            let real = SQLiteStagedWriteVFS.realFile(file)
            return real.pointee.pMethods?.pointee.xDeviceCharacteristics?(real) ?? 0
        }
    }

    private static func realFile(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + realFileOffset).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func state(of file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(file).load(fromByteOffset: stateOffset, as: UnsafeMutableRawPointer?.self)
    }

    private static func setState(_ state: UnsafeMutableRawPointer?, of file: UnsafeMutablePointer<sqlite3_file>) {
        UnsafeMutableRawPointer(file).storeBytes(of: state, toByteOffset: stateOffset, as: UnsafeMutableRawPointer?.self)
    }

    private static func stagedFile(_ file: UnsafeMutablePointer<sqlite3_file>) -> SQLiteStagedFile? {
        state(of: file).map { Unmanaged<SQLiteStagedFile>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Writes what is staged for `file` and waits for it; nothing for a file of another VFS.
    /// - Throws: the first failed write of the file.
    static func writeStagedPages(of file: UnsafeMutablePointer<sqlite3_file>) throws(POSIXFileError) {
        guard file.pointee.pMethods == UnsafePointer(methods) else { return }
        try stagedFile(file)?.writeStaged()
    }

    /// Writes what is staged for `file`, then calls the default VFS's method (`call`, nil when
    /// the file has none): its result, or the failed write's code.
    private static func afterStagedWrites(_ file: UnsafeMutablePointer<sqlite3_file>?,
                                          _ call: (UnsafeMutablePointer<sqlite3_file>) -> Int32?) -> Int32 {
        guard let file else { return SQLITE_IOERR }
        let failed = writeStaged(file)
        guard failed == SQLITE_OK else { return failed }
        return call(realFile(file)) ?? SQLITE_IOERR
    }

    /// Writes what is staged for `file`, if anything: `SQLITE_OK` or the failure's code.
    private static func writeStaged(_ file: UnsafeMutablePointer<sqlite3_file>) -> Int32 {
        guard let staged = stagedFile(file) else { return SQLITE_OK }
        do {
            try staged.writeStaged()
            return SQLITE_OK
        } catch {
            return resultCode(error)
        }
    }

    private static func resultCode(_ error: any Error) -> Int32 {
        (error as? POSIXFileError)?.isDiskFull == true ? SQLITE_FULL : SQLITE_IOERR
    }
}
