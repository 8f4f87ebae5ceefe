extension SequentialFileOutput {
    /// Appends `length` bytes that `read(offset, count, buffer)` fills straight into the
    /// output's buffers (no copy in between), a few MiB at a time; `offset` counts from the
    /// first byte of this copy.
    /// - Throws: what `read` throws, `POSIXFileError` from the output, `CancellationError` once
    ///   `isCancelled`.
    func appendCopy(length: UInt64, isCancelled: () -> Bool = { false },
                    read: (UInt64, Int, UnsafeMutableRawPointer) throws -> Void) throws {
        var done: UInt64 = 0
        while done < length {
            if isCancelled() { throw CancellationError() }
            var failure: (any Error)?
            done += UInt64(try appendFilling(maximum: Int(min(length - done, 4 << 20))) { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                do { try read(done, buffer.count, base) } catch { failure = error }
                return failure == nil ? buffer.count : 0
            })
            if let failure { throw failure }
        }
    }
}
