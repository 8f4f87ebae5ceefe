#if canImport(CTileSyncFileShims)
import CTileSyncFileShims
#endif

/// Keeps reads through memory maps (`TileSource`'s `mappedReadBytes`) from killing the process
/// when another program truncates a mapped file in place (`cp` over a served MBTiles): on Linux
/// a SIGBUS handler maps a page of zeros where the file ended, so the read goes on, SQLite sees
/// a damaged page and the lookup fails with an error. Other SIGBUS keep their default action.
/// The zeros stay in that connection's map: open the store again once its file is whole
/// (`tilesync serve` does when the file's stamp changes). Process-wide: for servers, installed
/// once before their stores open.
public enum MappedFileGuard {
    /// Installs the handler (once: later calls return the first answer); false where the
    /// system has none (not Linux) or it failed.
    @discardableResult
    public static func install() -> Bool { installed }

    private static let installed: Bool = {
        #if canImport(CTileSyncFileShims)
        return ctilesync_guard_mapped_reads() == 0
        #else
        return false
        #endif
    }()

    /// How many reads the handler let go on past the end of a truncated file.
    public static var guardedFaults: Int {
        #if canImport(CTileSyncFileShims)
        return Int(ctilesync_guarded_mapped_faults())
        #else
        return 0
        #endif
    }
}
