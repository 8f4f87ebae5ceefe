#if canImport(CTileSyncArchive)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an uncompressed POSIX tar archive itself, through a 1 MiB buffer: ustar headers, with
/// a pax extended header (`path`, `linkpath`, `size`) only for what ustar cannot hold. The same
/// format libarchive's `pax_restricted` writes, at a fraction of the cost per entry; the
/// archive ends with two zero blocks, padded to a multiple of 10,240 bytes as tar does.
final class PlainTarFileWriter: TarEntryWriting {
    static let blockSize = 512
    static let recordSize = 10_240
    private static let bufferSize = 1 << 20
    /// Largest size an 11-digit octal field holds (8 GiB - 1).
    private static let maxOctalSize = (1 << 33) - 1

    let path: String
    private var descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var buffered = 0
    private var totalBytes = 0
    private var header = [UInt8](repeating: 0, count: blockSize)
    private var writeback = EarlyWriteback()

    /// Creates (truncates) `path`.
    /// - Throws: `ArchiveError` with the system error when the file cannot be created.
    init(path: String) throws(ArchiveError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw ArchiveError(path: path, entry: nil, message: "cannot create: \(String(cString: strerror(code)))", code: code)
        }
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 4096)
    }

    deinit {
        if descriptor >= 0 { _ = Self.closeFile(descriptor) }
        buffer.deallocate()
    }

    func writeFile(path entryPath: String, data: Data, modificationTime: Int) throws(ArchiveError) {
        try writeHeader(entryPath, type: UInt8(ascii: "0"), linkTarget: nil, size: data.count, modificationTime: modificationTime)
        var failure: ArchiveError?
        data.withUnsafeBytes { bytes in
            do throws(ArchiveError) { try append(bytes, entry: entryPath) } catch { failure = error }
        }
        if let failure { throw failure }
        try padToBlock(entry: entryPath)
    }

    func writeHardLink(path entryPath: String, target: String, modificationTime: Int) throws(ArchiveError) {
        try writeHeader(entryPath, type: UInt8(ascii: "1"), linkTarget: target, size: 0, modificationTime: modificationTime)
    }

    func close() throws(ArchiveError) {
        guard descriptor >= 0 else { return }
        let end = 2 * Self.blockSize + (Self.recordSize - (totalBytes + 2 * Self.blockSize) % Self.recordSize) % Self.recordSize
        try appendZeros(end, entry: nil)
        try flush(entry: nil)
        let result = Self.closeFile(descriptor)
        descriptor = -1
        if result != 0 { throw systemError("close", entry: nil) }
    }

    private func writeHeader(_ entryPath: String, type: UInt8, linkTarget: String?,
                             size: Int, modificationTime: Int) throws(ArchiveError) {
        let name = Array(entryPath.utf8)
        let link = linkTarget.map { Array($0.utf8) } ?? []
        let split = Self.splitUSTarName(name)
        var records: [(String, [UInt8])] = []
        if split == nil { records.append(("path", name)) }
        if link.count > 100 { records.append(("linkpath", link)) }
        if size > Self.maxOctalSize { records.append(("size", Array(String(size).utf8))) }
        if !records.isEmpty {
            let body = records.flatMap { Self.paxRecord(key: $0.0, value: $0.1) }
            let base = Array("PaxHeaders/".utf8) + Array((name.split(separator: UInt8(ascii: "/")).last ?? []).prefix(80))
            fillHeader(name: base, prefix: [], type: UInt8(ascii: "x"), link: [], size: body.count, modificationTime: modificationTime)
            try append(header, entry: entryPath)
            try append(body, entry: entryPath)
            try padToBlock(entry: entryPath)
        }
        let fitted = split ?? (prefix: [], name: Array(name.prefix(100)))
        fillHeader(name: fitted.name, prefix: fitted.prefix, type: type, link: Array(link.prefix(100)),
                   size: size > Self.maxOctalSize ? 0 : size, modificationTime: modificationTime)
        try append(header, entry: entryPath)
    }

    private func fillHeader(name: [UInt8], prefix: [UInt8], type: UInt8, link: [UInt8], size: Int, modificationTime: Int) {
        header.withUnsafeMutableBufferPointer { block in
            block.update(repeating: 0)
            Self.put(name, into: block, at: 0, width: 100)
            Self.putOctal(0o644, into: block, at: 100, width: 8)
            Self.putOctal(0, into: block, at: 108, width: 8)
            Self.putOctal(0, into: block, at: 116, width: 8)
            Self.putOctal(size, into: block, at: 124, width: 12)
            Self.putOctal(min(max(modificationTime, 0), Self.maxOctalSize), into: block, at: 136, width: 12)
            block[156] = type
            Self.put(link, into: block, at: 157, width: 100)
            Self.put(Self.magic, into: block, at: 257, width: 8)
            Self.put(prefix, into: block, at: 345, width: 155)
            for index in 148..<156 { block[index] = UInt8(ascii: " ") }
            var checksum = 0
            for byte in block { checksum &+= Int(byte) }
            Self.putOctal(checksum, into: block, at: 148, width: 7)
            block[155] = UInt8(ascii: " ")
        }
    }

    /// ustar's magic and version fields: `ustar\0` then `00`.
    private static let magic: [UInt8] = [0x75, 0x73, 0x74, 0x61, 0x72, 0x00, 0x30, 0x30]

    /// `name` as ustar's (prefix, name) fields, split at a slash; nil when it does not fit.
    static func splitUSTarName(_ name: [UInt8]) -> (prefix: [UInt8], name: [UInt8])? {
        if name.count <= 100 { return ([], name) }
        for index in name.indices.reversed() where name[index] == UInt8(ascii: "/") {
            let rest = name.count - index - 1
            if rest > 100 { return nil }
            if index <= 155 && rest > 0 { return (Array(name[..<index]), Array(name[(index + 1)...])) }
        }
        return nil
    }

    /// One pax record, `LENGTH key=value\n`, whose length counts its own digits.
    static func paxRecord(key: String, value: [UInt8]) -> [UInt8] {
        let base = key.utf8.count + value.count + 3
        var length = base + String(base).count
        if String(length).count != String(base).count { length = base + String(length).count }
        return Array("\(length) \(key)=".utf8) + value + [UInt8(ascii: "\n")]
    }

    private static func put(_ bytes: [UInt8], into block: UnsafeMutableBufferPointer<UInt8>, at offset: Int, width: Int) {
        for index in 0..<min(bytes.count, width) { block[offset + index] = bytes[index] }
    }

    /// `value` as zero-padded octal digits filling `width - 1` bytes, then a NUL.
    private static func putOctal(_ value: Int, into block: UnsafeMutableBufferPointer<UInt8>, at offset: Int, width: Int) {
        var remaining = value
        for index in stride(from: width - 2, through: 0, by: -1) {
            block[offset + index] = UInt8(ascii: "0") + UInt8(remaining & 7)
            remaining >>= 3
        }
        block[offset + width - 1] = 0
    }

    private func append(_ bytes: [UInt8], entry: String?) throws(ArchiveError) {
        var failure: ArchiveError?
        bytes.withUnsafeBytes { raw in
            do throws(ArchiveError) { try append(raw, entry: entry) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func append(_ bytes: UnsafeRawBufferPointer, entry: String?) throws(ArchiveError) {
        var offset = 0
        while offset < bytes.count {
            if buffered == buffer.count { try flush(entry: entry) }
            let count = min(bytes.count - offset, buffer.count - buffered)
            if let source = bytes.baseAddress, let target = buffer.baseAddress {
                (target + buffered).copyMemory(from: source + offset, byteCount: count)
            }
            buffered += count
            offset += count
        }
        totalBytes += bytes.count
    }

    private func appendZeros(_ count: Int, entry: String?) throws(ArchiveError) {
        var remaining = count
        while remaining > 0 {
            if buffered == buffer.count { try flush(entry: entry) }
            let chunk = min(remaining, buffer.count - buffered)
            if let target = buffer.baseAddress { (target + buffered).initializeMemory(as: UInt8.self, repeating: 0, count: chunk) }
            buffered += chunk
            remaining -= chunk
        }
        totalBytes += count
    }

    private func padToBlock(entry: String?) throws(ArchiveError) {
        let remainder = totalBytes % Self.blockSize
        if remainder != 0 { try appendZeros(Self.blockSize - remainder, entry: entry) }
    }

    private func flush(entry: String?) throws(ArchiveError) {
        var offset = 0
        while offset < buffered, let base = buffer.baseAddress {
            let count = write(descriptor, base + offset, buffered - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError("write", entry: entry)
            }
            offset += count
        }
        writeback.wrote(buffered, descriptor: descriptor)
        buffered = 0
    }

    private static func closeFile(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }

    private func systemError(_ operation: String, entry: String?) -> ArchiveError {
        let code = errno
        return ArchiveError(path: path, entry: entry, message: "\(operation) failed: \(String(cString: strerror(code)))", code: code)
    }
}
#endif
