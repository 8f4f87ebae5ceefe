import Foundation

/// One part of a multipart upload, copied from the file being uploaded into a scratch file of
/// its own beside it, with the MD5 (`Content-MD5`) and SHA-256 (the signed payload hash) taken
/// on the way: URLSession then streams the part from disk, so a part in flight costs a 1 MiB
/// buffer while it is copied instead of its whole size in memory (twice, on Linux, where
/// FoundationNetworking copies a `Data` body). Deleted by `remove()` once the part is sent.
struct S3PartFile: Sendable {
    /// The scratch file.
    let url: URL
    let md5: ContentHash
    /// Lowercase hex, as Signature V4 takes it.
    let sha256: String

    private static let bufferBytes = 1 << 20

    /// Copies `count` bytes at `offset` of `file`.
    /// - Throws: `POSIXFileError` reading `file` or writing the scratch file; `DigestError`.
    init(copying file: RandomAccessFile, offset: UInt64, count: Int, part: Int) throws {
        let path = AtomicFile.temporaryPath(beside: file.path + ".part\(part)")
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw POSIXFileError(operation: "create", path: path, code: errno)
        }
        url = URL(fileURLWithPath: path)
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            let md5 = MD5Hasher()
            let sha256 = SHA256Hasher()
            var buffer = Data(count: min(count, Self.bufferBytes))
            var done = 0
            while done < count {
                let chunk = min(buffer.count, count - done)
                var failure: POSIXFileError?
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    do throws(POSIXFileError) { try file.read(at: offset + UInt64(done), count: chunk, into: base) } catch { failure = error }
                    let bytes = UnsafeRawBufferPointer(start: base, count: chunk)
                    md5.update(bytes)
                    sha256.update(bytes)
                }
                if let failure { throw failure }
                try output.write(contentsOf: buffer.prefix(chunk))
                done += chunk
            }
            self.md5 = try md5.finalize()
            self.sha256 = SHA256Digest.hex(try sha256.finalize())
        } catch {
            AtomicFile.remove(path)
            throw error
        }
    }

    func remove() {
        AtomicFile.remove(url.path)
    }
}
