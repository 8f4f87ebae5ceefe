import Foundation

extension AtomicFile {
    /// Throws `.destinationExists` when something is at `path` and replacing it was not asked for;
    /// `allowEmptyFolder` lets an empty folder count as free (a folder destination fills it).
    static func refuseExisting(_ path: String, overwrite: Bool, allowEmptyFolder: Bool = false) throws(TileStoreError) {
        guard exists(path), !overwrite else { return }
        if allowEmptyFolder, (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true { return }
        throw TileStoreError(.destinationExists, store: path, message: "already exists", hint: "pass --force to replace it")
    }
}
