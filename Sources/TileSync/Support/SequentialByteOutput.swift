/// A file written front to back: what `PlainTarFileWriter` writes its archive into, plain
/// (`SequentialFileOutput`) or compressed on the way (`BlockCompressedOutput`).
protocol SequentialByteOutput: AnyObject {
    /// Bytes appended so far (before any compression).
    var count: Int { get }
    /// Appends bytes.
    /// - Throws: `POSIXFileError` when an earlier write failed.
    func append(_ bytes: UnsafeRawBufferPointer) throws(POSIXFileError)
    /// Appends zero bytes.
    /// - Throws: as `append(_:)`.
    func appendZeros(_ zeros: Int) throws(POSIXFileError)
    /// Appends `size` bytes that `body` writes in place.
    /// - Throws: as `append(_:)`.
    func appendInPlace(_ size: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) throws(POSIXFileError)
    /// Writes what is left and closes the file (not synced).
    /// - Throws: `POSIXFileError` when a write or the close fails.
    func close() throws(POSIXFileError)
}

extension SequentialFileOutput: SequentialByteOutput {}
