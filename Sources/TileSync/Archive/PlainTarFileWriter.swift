#if canImport(CTileSyncArchive)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a POSIX tar archive itself, through `SequentialFileOutput` (1 MiB
/// buffers written on a second thread, direct I/O on Linux): ustar headers, with
/// a pax extended header (`path`, `linkpath`, `size`) only for what ustar cannot hold. The same
/// format libarchive's `pax_restricted` writes, at a fraction of the cost per entry; the
/// archive ends with two zero blocks, padded to a multiple of 10,240 bytes as tar does.
/// Compressed archives go through `BlockCompressedOutput` (gzip or zstd on every core).
final class PlainTarFileWriter: TarEntryWriting {
    static let blockSize = 512
    static let recordSize = 10_240
    /// Largest size an 11-digit octal field holds (8 GiB - 1).
    private static let maxOctalSize = (1 << 33) - 1

    let path: String
    private let output: any SequentialByteOutput
    /// The header fields every entry shares (mode 0644, uid and gid 0, the time, ustar magic,
    /// checksum field as spaces) and the sum of its bytes.
    private var fixedHeader = [UInt8](repeating: 0, count: blockSize)
    private var fixedHeaderSum = 0
    private var fixedHeaderTime = -1

    /// Creates (truncates) `path`.
    /// - Parameter compression: gzip or zstd compress the archive in 1 MiB blocks on every core
    ///   (`BlockCompressedOutput`).
    /// - Throws: `ArchiveError` with the system error when the file cannot be created.
    init(path: String, compression: BlockCompressedOutput.Compression? = nil) throws(ArchiveError) {
        self.path = path
        do throws(POSIXFileError) {
            if let compression {
                output = try BlockCompressedOutput(path: path, compression: compression)
            } else {
                output = try SequentialFileOutput(path: path)
            }
        } catch {
            throw ArchiveError(path: path, entry: nil, message: "cannot create: \(String(cString: strerror(error.code)))", code: error.code)
        }
    }

    func writeFile(path entryPath: [UInt8], data: Data, modificationTime: Int) throws(ArchiveError) {
        try writeHeader(entryPath, type: UInt8(ascii: "0"), linkTarget: [], size: data.count, modificationTime: modificationTime)
        var failure: ArchiveError?
        data.withUnsafeBytes { bytes in
            do throws(ArchiveError) { try append(bytes, entry: entryPath) } catch { failure = error }
        }
        if let failure { throw failure }
        try padToBlock(entry: entryPath)
    }

    func writeHardLink(path entryPath: [UInt8], target: [UInt8], modificationTime: Int) throws(ArchiveError) {
        try writeHeader(entryPath, type: UInt8(ascii: "1"), linkTarget: target, size: 0, modificationTime: modificationTime)
    }

    func close() throws(ArchiveError) {
        let total = output.count
        let end = 2 * Self.blockSize + (Self.recordSize - (total + 2 * Self.blockSize) % Self.recordSize) % Self.recordSize
        try appendZeros(end, entry: nil)
        do {
            try output.close()
        } catch {
            throw archiveError(error, entry: nil)
        }
    }

    private func writeHeader(_ name: [UInt8], type: UInt8, linkTarget link: [UInt8],
                             size: Int, modificationTime: Int) throws(ArchiveError) {
        let split = Self.splitUSTarName(name)
        if split == nil || link.count > 100 || size > Self.maxOctalSize {
            var records: [(String, [UInt8])] = []
            if split == nil { records.append(("path", name)) }
            if link.count > 100 { records.append(("linkpath", link)) }
            if size > Self.maxOctalSize { records.append(("size", Array(String(size).utf8))) }
            let body = records.flatMap { Self.paxRecord(key: $0.0, value: $0.1) }
            let base = Array("PaxHeaders/".utf8) + Array((name.split(separator: UInt8(ascii: "/")).last ?? []).prefix(80))
            try appendHeader(name: base[...], prefix: [], type: UInt8(ascii: "x"), link: [],
                             size: body.count, modificationTime: modificationTime, entry: name)
            try append(body, entry: name)
            try padToBlock(entry: name)
        }
        let fitted = split ?? (prefix: [], name: name.prefix(100))
        try appendHeader(name: fitted.name, prefix: fitted.prefix, type: type, link: link.prefix(100),
                         size: size > Self.maxOctalSize ? 0 : size, modificationTime: modificationTime, entry: name)
    }

    /// Appends one 512-byte ustar header: a copy of the fixed fields (`fixedHeader`), then the
    /// entry's own fields, with the checksum added up from the fixed part's sum.
    private func appendHeader(name: ArraySlice<UInt8>, prefix: ArraySlice<UInt8>, type: UInt8, link: ArraySlice<UInt8>,
                              size: Int, modificationTime: Int, entry: [UInt8]) throws(ArchiveError) {
        let time = min(max(modificationTime, 0), Self.maxOctalSize)
        if time != fixedHeaderTime { makeFixedHeader(modificationTime: time) }
        let fixed = fixedHeader, fixedSum = fixedHeaderSum
        do {
            try output.appendInPlace(Self.blockSize) { raw in
                let block = raw.bindMemory(to: UInt8.self)
                fixed.withUnsafeBufferPointer { source in
                    if let from = source.baseAddress, let to = block.baseAddress { to.update(from: from, count: Self.blockSize) }
                }
                var checksum = fixedSum
                checksum += Self.put(name, into: block, at: 0, width: 100)
                checksum += Self.putOctal(size, into: block, at: 124, width: 12)
                block[156] = type
                checksum += Int(type)
                checksum += Self.put(link, into: block, at: 157, width: 100)
                checksum += Self.put(prefix, into: block, at: 345, width: 155)
                _ = Self.putOctal(checksum, into: block, at: 148, width: 7)
                block[155] = UInt8(ascii: " ")
            }
        } catch {
            throw archiveError(error, entry: entry)
        }
    }

    private func makeFixedHeader(modificationTime: Int) {
        fixedHeader.withUnsafeMutableBufferPointer { block in
            block.update(repeating: 0)
            _ = Self.putOctal(0o644, into: block, at: 100, width: 8)
            _ = Self.putOctal(0, into: block, at: 108, width: 8)
            _ = Self.putOctal(0, into: block, at: 116, width: 8)
            _ = Self.putOctal(modificationTime, into: block, at: 136, width: 12)
            _ = Self.put(Self.magic[...], into: block, at: 257, width: 8)
            for index in 148..<156 { block[index] = UInt8(ascii: " ") }
        }
        fixedHeaderSum = fixedHeader.reduce(0) { $0 + Int($1) }
        fixedHeaderTime = modificationTime
    }

    /// ustar's magic and version fields: `ustar\0` then `00`.
    private static let magic: [UInt8] = [0x75, 0x73, 0x74, 0x61, 0x72, 0x00, 0x30, 0x30]

    /// `name` as ustar's (prefix, name) fields, split at a slash; nil when it does not fit.
    static func splitUSTarName(_ name: [UInt8]) -> (prefix: ArraySlice<UInt8>, name: ArraySlice<UInt8>)? {
        if name.count <= 100 { return ([], name[...]) }
        for index in name.indices.reversed() where name[index] == UInt8(ascii: "/") {
            let rest = name.count - index - 1
            if rest > 100 { return nil }
            if index <= 155 && rest > 0 { return (name[..<index], name[(index + 1)...]) }
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

    /// Copies at most `width` bytes into the block; returns the sum of the bytes copied.
    private static func put(_ bytes: ArraySlice<UInt8>, into block: UnsafeMutableBufferPointer<UInt8>, at offset: Int, width: Int) -> Int {
        var sum = 0
        var target = offset
        for byte in bytes.prefix(width) {
            block[target] = byte
            sum += Int(byte)
            target += 1
        }
        return sum
    }

    /// `value` as zero-padded octal digits filling `width - 1` bytes, then a NUL; returns the
    /// sum of the bytes written.
    private static func putOctal(_ value: Int, into block: UnsafeMutableBufferPointer<UInt8>, at offset: Int, width: Int) -> Int {
        var remaining = value
        var sum = 0
        for index in stride(from: width - 2, through: 0, by: -1) {
            let digit = UInt8(ascii: "0") + UInt8(remaining & 7)
            block[offset + index] = digit
            sum += Int(digit)
            remaining >>= 3
        }
        block[offset + width - 1] = 0
        return sum
    }

    private func append(_ bytes: [UInt8], entry: [UInt8]?) throws(ArchiveError) {
        var failure: ArchiveError?
        bytes.withUnsafeBytes { raw in
            do throws(ArchiveError) { try append(raw, entry: entry) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func append(_ bytes: UnsafeRawBufferPointer, entry: [UInt8]?) throws(ArchiveError) {
        do {
            try output.append(bytes)
        } catch {
            throw archiveError(error, entry: entry)
        }
    }

    private func appendZeros(_ count: Int, entry: [UInt8]?) throws(ArchiveError) {
        do {
            try output.appendZeros(count)
        } catch {
            throw archiveError(error, entry: entry)
        }
    }

    private func padToBlock(entry: [UInt8]?) throws(ArchiveError) {
        let remainder = output.count % Self.blockSize
        if remainder != 0 { try appendZeros(Self.blockSize - remainder, entry: entry) }
    }

    private func archiveError(_ error: POSIXFileError, entry: [UInt8]?) -> ArchiveError {
        ArchiveError(path: path, entry: entry.map { String(decoding: $0, as: UTF8.self) }, message: error.description, code: error.code)
    }
}
#endif
