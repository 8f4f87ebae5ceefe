import Foundation

/// One HTTP exchange made with the `curl` command line (what a user would type): status,
/// headers (names lower-cased) and body bytes.
struct CurlResponse {
    let status: Int
    let headers: [String: String]
    let body: Data

    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// - Parameter options: more curl options (`-H`, `-X`, `--path-as-is`, ...).
    static func get(_ url: String, _ options: [String] = []) throws -> CurlResponse {
        let directory = NSTemporaryDirectory() + "tilesync-curl-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-D", directory + "/headers", "-o", directory + "/body"] + options + [url]
        try process.run()
        process.waitUntilExit()
        let head = (try? String(contentsOfFile: directory + "/headers", encoding: .utf8)) ?? ""
        var status = 0
        var headers: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix("HTTP/") {
                status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let body = FileManager.default.contents(atPath: directory + "/body") ?? Data()
        return CurlResponse(status: status, headers: headers, body: body)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}
