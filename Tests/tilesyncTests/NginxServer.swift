import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// nginx (Debian `nginx-light`) serving a folder on 127.0.0.1 for a test, with its config, pid,
/// logs and temporary folders in a folder of its own; stopped when the value goes away. The
/// access log has one line per request: `METHOD URI STATUS IF-NONE-MATCH "USER-AGENT"` (`-` for
/// a request without `If-None-Match`); the connection log `CONNECTION PROTOCOL` (nginx's serial
/// number of the connection, `HTTP/1.1` or `HTTP/2.0`). With `tls`, it speaks HTTPS with HTTP/2
/// and a certificate for 127.0.0.1 made here by openssl (`certificate`, a self-signed PEM).
final class NginxServer {
    static let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let available = binary != nil
    static let missingMessage = "nginx not found (apt-get install nginx-light): tile server tests SKIPPED"

    let port: Int
    let work: String
    private let process: Process

    /// - Parameters:
    ///   - root: the folder served at `/`.
    ///   - locations: extra `location` blocks for the server.
    init(root: String, locations: String = "", tls: Bool = false) throws {
        work = NSTemporaryDirectory() + "tilesync-nginx-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work + "/logs", withIntermediateDirectories: true)
        self.tls = tls
        if tls { try Self.makeCertificate(in: work) }
        let listen = tls ? " ssl http2;\n    ssl_certificate \(work)/cert.pem; ssl_certificate_key \(work)/key.pem" : ""
        var started: (Process, Int)?
        for _ in 0..<8 where started == nil {
            let port = Int.random(in: 20_000..<60_000)
            let config = """
                worker_processes 1;
                daemon off;
                pid \(work)/nginx.pid;
                error_log \(work)/logs/error.log;
                events { worker_connections 512; }
                http {
                  log_format tests '$request_method $request_uri $status $http_if_none_match "$http_user_agent"';
                  log_format connections '$connection $server_protocol';
                  access_log \(work)/logs/access.log tests;
                  access_log \(work)/logs/connections.log connections;
                  client_body_temp_path \(work)/body; proxy_temp_path \(work)/proxy; fastcgi_temp_path \(work)/fastcgi;
                  uwsgi_temp_path \(work)/uwsgi; scgi_temp_path \(work)/scgi;
                  types { image/png png; application/json json; }
                  server {
                    listen 127.0.0.1:\(port)\(listen);
                    root \(root);
                    \(locations)
                  }
                }
                """
            try Data(config.utf8).write(to: URL(fileURLWithPath: work + "/nginx.conf"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary ?? "/usr/sbin/nginx")
            process.arguments = ["-c", work + "/nginx.conf", "-p", work]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            for _ in 0..<250 where process.isRunning && !Self.accepts(port: port) {
                Thread.sleep(forTimeInterval: 0.02)
            }
            if process.isRunning && Self.accepts(port: port) {
                started = (process, port)
            } else if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        guard let (process, port) = started else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not start (see \(work)/logs/error.log)"])
        }
        self.process = process
        self.port = port
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: work)
    }

    let tls: Bool

    var base: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    /// The self-signed certificate (PEM) of a TLS server.
    var certificate: String { work + "/cert.pem" }

    /// A key and a self-signed certificate for 127.0.0.1, valid for a day.
    private static func makeCertificate(in folder: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl could not make a certificate"])
        }
    }

    /// `CONNECTION PROTOCOL` of every request logged so far.
    var connections: [String] {
        let text = (try? String(contentsOfFile: work + "/logs/connections.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// The requests logged so far.
    var requests: [String] {
        let text = (try? String(contentsOfFile: work + "/logs/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
