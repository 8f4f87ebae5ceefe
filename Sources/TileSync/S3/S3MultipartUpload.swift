import Foundation
import Synchronization

/// Uploads a local file as one object: a single PUT up to `partSize`, else a multipart upload
/// (CreateMultipartUpload, parts of `partSize` bytes or more, at most 10,000, `inFlight` at a
/// time, each with its `Content-MD5` and streamed from a scratch copy, `S3PartFile`, then
/// CompleteMultipartUpload). A failure aborts the upload, so no parts are left to be billed,
/// and the object is as it was before: S3 makes the new object visible only when the upload
/// completes.
struct S3MultipartUpload {
    /// The smallest part (S3 allows 5 MiB; larger parts mean fewer requests).
    static let partSize = 8 << 20
    /// Parts S3 accepts at most.
    static let maxParts = 10_000
    /// Parts sent at once (each streamed from a scratch file of its own beside the file).
    static let inFlight = 3

    let client: S3Client
    let key: String
    /// Headers of the object (`Content-Type`, `Cache-Control`).
    let headers: [String: String]

    /// The part size for a file of `size` bytes: `partSize`, or more so that 10,000 parts hold it.
    static func partSize(for size: UInt64) -> Int {
        let needed = (size + UInt64(maxParts) - 1) / UInt64(maxParts)
        let mebibyte: UInt64 = 1 << 20
        return Int(max(UInt64(partSize), (needed + mebibyte - 1) / mebibyte * mebibyte))
    }

    /// Uploads the file.
    /// - Throws: `S3Error` after the retries (the multipart upload then aborted), or a
    ///   `POSIXFileError` reading the file.
    func upload(_ file: RandomAccessFile) throws {
        let size = file.size
        let partSize = Self.partSize(for: size)
        if size <= UInt64(partSize) {
            let body = try file.data(at: 0, count: Int(size))
            _ = try client.send(S3Client.putRequest(key, body: body, md5: ContentHash(of: body), headers: headers))
            return
        }
        let created = try client.send(S3Request("POST", key: key, query: [("uploads", "")], headers: headers))
        guard let uploadID = S3XMLElement.parse(created.body)?.value("UploadId"), !uploadID.isEmpty else {
            throw S3Error(status: created.status, message: "the server's answer to CreateMultipartUpload holds no UploadId", key: "object \(key)")
        }
        do {
            let tags = try uploadParts(file, partSize: partSize, uploadID: uploadID)
            var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            for (index, tag) in tags.enumerated() {
                xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(tag.replacingOccurrences(of: "\"", with: "&quot;"))</ETag></Part>"
            }
            xml += "</CompleteMultipartUpload>"
            let answer = try client.send(S3Request("POST", key: key, query: [("uploadId", uploadID)],
                                                   headers: ["Content-Type": "application/xml"], body: Data(xml.utf8)))
            // S3 may answer 200 and still fail the completion in the body.
            if let document = S3XMLElement.parse(answer.body), document.name == "Error" {
                throw S3Error(status: answer.status, code: document.value("Code"), message: document.value("Message") ?? "the upload did not complete",
                              key: "object \(key)")
            }
        } catch {
            _ = try? client.send(S3Request("DELETE", key: key, query: [("uploadId", uploadID)]), accepting: [404])
            throw error
        }
    }

    /// Sends every part, `inFlight` at a time; the parts' ETags in order.
    private func uploadParts(_ file: RandomAccessFile, partSize: Int, uploadID: String) throws -> [String] {
        let count = Int((file.size + UInt64(partSize) - 1) / UInt64(partSize))
        let tags = Mutex<[String?]>(Array(repeating: nil, count: count))
        let failure = Mutex<S3Error?>(nil)
        let slots = DispatchSemaphore(value: Self.inFlight)
        let group = DispatchGroup()
        for index in 0..<count {
            slots.wait()
            if failure.withLock({ $0 }) != nil {
                slots.signal()
                break
            }
            let offset = UInt64(index) * UInt64(partSize)
            let partFile: S3PartFile
            do {
                partFile = try S3PartFile(copying: file, offset: offset, count: Int(min(UInt64(partSize), file.size - offset)), part: index + 1)
            } catch {
                slots.signal()
                group.wait()
                throw error
            }
            var part = S3Client.putRequest(key, body: Data(), md5: partFile.md5, headers: [:])
            part.bodyFile = (partFile.url, partFile.sha256)
            part.query = [("partNumber", String(index + 1)), ("uploadId", uploadID)]
            group.enter()
            client.start(part) { result in
                partFile.remove()
                switch result {
                case .success(let answer):
                    if let tag = answer.header("etag") {
                        tags.withLock { $0[index] = tag }
                    } else {
                        failure.withLock { $0 = $0 ?? S3Error(status: answer.status, message: "part \(index + 1) was answered without an ETag", key: "object \(self.key)") }
                    }
                case .failure(let error):
                    failure.withLock { $0 = $0 ?? error }
                }
                slots.signal()
                group.leave()
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return try tags.withLock { tags in
            try tags.enumerated().map { index, tag in
                guard let tag else { throw S3Error(message: "part \(index + 1) was not uploaded", key: "object \(key)") }
                return tag
            }
        }
    }
}
