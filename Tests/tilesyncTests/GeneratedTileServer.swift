import Foundation

/// A temporary folder with a tree of 300 generated tiles (zooms 0-3 whole, 215 of zoom 4's
/// 256), served by nginx on 127.0.0.1 at `/` (ETag and Last-Modified, no expiry) and at
/// `/fresh/` (`Cache-Control: max-age=3600` too). The folder goes with the value.
final class GeneratedTileServer {
    let directory: String
    let server: NginxServer

    init(purpose: String) throws {
        directory = NSTemporaryDirectory() + "tilesync-\(purpose)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try GeneratedSource.write(to: directory + "/tree", count: 300, payload: 40)
        server = try NginxServer(root: directory + "/tree", locations: """
            location /fresh/ { expires 1h; rewrite ^/fresh/(.*)$ /$1 break; }
            """)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
