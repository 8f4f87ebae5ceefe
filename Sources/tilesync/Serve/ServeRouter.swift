import Foundation
import TileSync

/// Turns requests into answers for the served stores:
/// `/` the index page, `/NAME/` a preview map, `/NAME.json` TileJSON, `/NAME/{z}/{x}/{y}.{ext}`
/// a tile (XYZ rows, the bytes as stored), `/NAME.pmtiles` a local PMTiles archive with ranges,
/// `/_assets/FILE` the files of `--assets`. Anything else is a short 400, 404 or 405.
final class ServeRouter: Sendable {
    let stores: [String: ServedStore]
    /// The stores in the order given, for the index page.
    let order: [String]
    let settings: ServeSettings
    /// `host:port` listened on, for TileJSON when a request has no usable `Host`.
    let listenAddress: String

    /// The tiles' MD5s (their ETags), remembered by a cheaper fingerprint of their bytes.
    let hashes = ContentHash.Memo(capacity: 1 << 16)
    /// The MD5s and formats of tile files read once, by the files' identities (when a store
    /// keeps its tiles in files).
    let fileTags: FileTags?
    typealias FileTags = FixedSlotMemo<TileFile.Identity, ServedFileTag>

    /// The CORS headers every answer carries (none without `--cors-origin`).
    private let corsHeaders: [(name: String, value: String)]

    /// Paths longer than this many bytes are refused (400).
    static let maxPathBytes = 2048

    init(stores: [ServedStore], settings: ServeSettings, listenAddress: String) {
        self.stores = Dictionary(stores.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        order = stores.map(\.name)
        fileTags = stores.contains { $0.current().source.keepsTilesInFiles } ? FixedSlotMemo(capacity: 1 << 16) : nil
        self.settings = settings
        self.listenAddress = listenAddress
        var cors: [(name: String, value: String)] = []
        if let origin = settings.corsOrigin {
            cors.append(("Access-Control-Allow-Origin", origin))
            cors.append(("Access-Control-Expose-Headers", "ETag, Content-Length, Content-Range, Accept-Ranges"))
            if origin != "*" { cors.append(("Vary", "Origin")) }
        }
        corsHeaders = cors
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        if let tile = plainTile(request) { response = tile } else { response = route(request) }
        response.sharedHeaders = corsHeaders
        return response
    }

    /// A tile request whose path needs no decoding (`PlainTilePath`), answered from the path's
    /// bytes; nil for anything else, which `route` answers.
    private func plainTile(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        return request.withPathBytes { path -> HTTPResponse? in
            guard path.count <= Self.maxPathBytes, let plain = PlainTilePath(path),
                  let store = stores[String(decoding: UnsafeBufferPointer(rebasing: path[plain.name]), as: UTF8.self)] else { return nil }
            let version = store.current()
            switch TileRequestPath.coordinate(z: path[plain.z], x: path[plain.x], y: path[plain.y], format: version.format) {
            case .success(let coordinate): return tile(coordinate, in: store, version: version, request: request)
            case .failure(let problem): return .text(problem.status, problem.message)
            }
        }
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case "GET", "HEAD":
            break
        case "OPTIONS":
            return HTTPResponse(status: 204, headers: [
                ("Allow", "GET, HEAD, OPTIONS"), ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                ("Access-Control-Allow-Headers", "Range, If-None-Match, If-Range"), ("Access-Control-Max-Age", "86400"),
            ])
        default:
            return .text(405, "method \(request.method.prefix(20)) is not allowed (GET, HEAD)", headers: [("Allow", "GET, HEAD, OPTIONS")])
        }
        guard request.path.utf8.count <= Self.maxPathBytes else { return .text(400, "the path is longer than \(Self.maxPathBytes) bytes") }
        guard request.path.hasPrefix("/") else { return .text(400, "the path does not start with /") }
        let segments: [String]
        switch RequestPath.segments(of: request.path) {
        case .success(let decoded): segments = decoded
        case .failure(let problem): return .text(400, problem.message)
        }
        switch segments.count {
        case 0:
            return html(IndexPage.render(stores: order.compactMap { stores[$0] }))
        case 1:
            return routeTop(segments[0], request: request)
        case 2 where segments[0] == "_assets":
            return asset(named: segments[1])
        default:
            guard let store = stores[segments[0]] else { return unknownStore(segments[0]) }
            if segments.count == 2, segments[1].isEmpty { return html(PreviewPage.render(store: store, settings: settings)) }
            guard segments.count == 4 else { return .text(404, "no such path: tiles are at /\(store.name)/{z}/{x}/{y}.\(store.current().format.fileExtension)") }
            return tile(in: store, segments: segments[1...], request: request)
        }
    }

    private func routeTop(_ segment: String, request: HTTPRequest) -> HTTPResponse {
        if let store = stores[segment] {
            return HTTPResponse(status: 301, headers: [("Location", "/\(store.name)/")], body: .bytes(Data("see /\(store.name)/\n".utf8)))
        }
        if segment.hasSuffix(".json"), let store = stores[String(segment.dropLast(5))] {
            return tileJSON(of: store, request: request)
        }
        if segment.hasSuffix(".pmtiles"), let store = stores[String(segment.dropLast(8))] {
            return archive(of: store, request: request)
        }
        return unknownStore(segment)
    }

    private func unknownStore(_ name: String) -> HTTPResponse {
        let known = order.joined(separator: ", ")
        return .text(404, "no store named \(String(name.prefix(100)).debugDescription) here (stores: \(known))")
    }

    private func html(_ page: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")], body: .bytes(Data(page.utf8)))
    }

    private func tile(in store: ServedStore, segments: ArraySlice<String>, request: HTTPRequest) -> HTTPResponse {
        let version = store.current()
        let first = segments.startIndex
        switch TileRequestPath.coordinate(z: segments[first], x: segments[first + 1], y: segments[first + 2], format: version.format) {
        case .success(let coordinate): return tile(coordinate, in: store, version: version, request: request)
        case .failure(let problem): return .text(problem.status, problem.message)
        }
    }

    private func tile(_ coordinate: TileCoordinate, in store: ServedStore, version: ServedStoreVersion, request: HTTPRequest) -> HTTPResponse {
        do {
            if let fileTags, version.source.keepsTilesInFiles {
                guard let file = try version.source.tileFile(at: coordinate) else { return missingTile(coordinate, in: store) }
                return try answer(file, version: version, tags: fileTags, request: request)
            }
            guard let data = try version.source.tile(at: coordinate) else { return missingTile(coordinate, in: store) }
            let sniffed = SniffedTileFormat(sniffing: data, declaredCompression: version.declaredCompression, declaredFormat: version.format)
            if let encoding = sniffed.contentEncoding, !AcceptEncoding(request.header("accept-encoding")).accepts(encoding) {
                return try decodedAnswer(data, sniffed: sniffed, request: request)
            }
            return answer(.bytes(data), hash: hashes.md5(of: data), sniffed: sniffed, request: request)
        } catch let error as TileStoreError {
            let item = error.item.map { $0 + ": " } ?? ""
            return .text(500, "\(store.name): tile \(coordinate.z)/\(coordinate.x)/\(coordinate.y) could not be read: \(item)\(error.message)")
        } catch {
            return .text(500, "\(store.name): tile \(coordinate.z)/\(coordinate.x)/\(coordinate.y) could not be read: \(error)")
        }
    }

    /// A tile kept in a file of its own: read once, then known by its identity and sent from
    /// the descriptor.
    private func answer(_ file: TileFile, version: ServedStoreVersion, tags fileTags: FileTags, request: HTTPRequest) throws -> HTTPResponse {
        var data: Data?
        let entry: ServedFileTag
        if let known = fileTags.value(for: file.identity) {
            entry = known
        } else {
            let bytes = try file.bytes()
            entry = ServedFileTag(hash: hashes.md5(of: bytes), sniffed: SniffedTileFormat(sniffing: bytes))
            if bytes.count == file.size { fileTags.remember(entry, for: file.identity) }
            data = bytes
        }
        let sniffed = entry.sniffed.declaring(compression: version.declaredCompression, format: version.format)
        if let encoding = sniffed.contentEncoding, !AcceptEncoding(request.header("accept-encoding")).accepts(encoding) {
            return try decodedAnswer(try data ?? file.bytes(), sniffed: sniffed, request: request)
        }
        let body: HTTPResponse.Body = if let data { .bytes(data) } else {
            .file(OpenFileRange(descriptor: file.takeDescriptor(), offset: 0, length: UInt64(file.size)))
        }
        return answer(body, hash: entry.hash, sniffed: sniffed, request: request)
    }

    /// A compressed tile for a client whose `Accept-Encoding` does not take its compression:
    /// decompressed, with the MD5 of what is sent as its ETag.
    /// - Throws: `TileStoreError` `.invalidTile` when the bytes do not decode.
    private func decodedAnswer(_ data: Data, sniffed: SniffedTileFormat, request: HTTPRequest) throws -> HTTPResponse {
        let plain: Data
        do {
            plain = try sniffed.compression.decompressed(data)
        } catch {
            throw TileStoreError(.invalidTile, store: "", message: "is \(sniffed.compression.rawValue)-compressed, which the client does not accept "
                + "(Accept-Encoding: \(request.header("accept-encoding") ?? "")), and does not decode: \(error.message)")
        }
        return answer(.bytes(plain), hash: hashes.md5(of: plain), sniffed: SniffedTileFormat(sniffed.format), request: request, varies: true)
    }

    /// A tile's answer; `varies` (also whenever the bytes are compressed) says that it depends
    /// on the request's `Accept-Encoding`.
    private func answer(_ body: HTTPResponse.Body, hash: ContentHash, sniffed: SniffedTileFormat, request: HTTPRequest,
                        varies: Bool = false) -> HTTPResponse {
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(4)
        headers.append(("Cache-Control", settings.cacheControl))
        if varies || sniffed.contentEncoding != nil { headers.append(("Vary", "Accept-Encoding")) }
        if let condition = request.header("if-none-match"), EntityTag.ifNoneMatch(condition, matches: hash.quotedHex) {
            return HTTPResponse(status: 304, entityTag: hash, headers: headers)
        }
        headers.append(("Content-Type", sniffed.format.mediaType))
        if let encoding = sniffed.contentEncoding { headers.append(("Content-Encoding", encoding)) }
        return HTTPResponse(status: 200, entityTag: hash, headers: headers, body: body)
    }

    private func missingTile(_ coordinate: TileCoordinate, in store: ServedStore) -> HTTPResponse {
        settings.missingTileStatus == 204
            ? HTTPResponse(status: 204, headers: [("Cache-Control", settings.cacheControl)])
            : .text(404, "\(store.name) has no tile \(coordinate.z)/\(coordinate.x)/\(coordinate.y)", headers: [("Cache-Control", settings.cacheControl)])
    }

    private func tileJSON(of store: ServedStore, request: HTTPRequest) -> HTTPResponse {
        let body = TileJSONDocument.render(store: store, version: store.current(), base: baseURL(for: request))
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", settings.cacheControl)], body: .bytes(body))
    }

    /// `--public-url`, else `http://` and the request's `Host` when it is a plain host name or
    /// address with a port, else the address listened on.
    func baseURL(for request: HTTPRequest) -> String {
        if let publicURL = settings.publicURL { return publicURL }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        if let host = request.header("host"), !host.isEmpty, host.utf8.count <= 255,
           host.unicodeScalars.allSatisfy(allowed.contains) {
            let scheme = request.header("x-forwarded-proto") == "https" ? "https" : "http"
            return scheme + "://" + host
        }
        return "http://" + listenAddress
    }

    private func archive(of store: ServedStore, request: HTTPRequest) -> HTTPResponse {
        let version = store.current()
        guard let path = version.archivePath else {
            return .text(404, "\(store.name) is not a local PMTiles archive: its tiles are at /\(store.name)/{z}/{x}/{y}.\(version.format.fileExtension)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return .text(500, "\(store.name): cannot open the archive")
        }
        let size = UInt64(status.st_size)
        #if os(Linux)
        let modified = status.st_mtim
        #else
        let modified = status.st_mtimespec
        #endif
        let tag = EntityTag.quoted("\(status.st_ino)-\(status.st_size)-\(modified.tv_sec).\(modified.tv_nsec)")
        var headers: [(name: String, value: String)] = [
            ("ETag", tag), ("Accept-Ranges", "bytes"), ("Content-Type", "application/vnd.pmtiles"), ("Cache-Control", settings.cacheControl),
        ]
        if let condition = request.header("if-none-match"), EntityTag.ifNoneMatch(condition, matches: tag) {
            close(descriptor)
            return HTTPResponse(status: 304, headers: headers)
        }
        var answer = ByteRangeRequest.Answer.whole
        if let range = request.header("range"), request.header("if-range").map({ $0 == tag }) ?? true {
            answer = ByteRangeRequest.answer(range, size: size)
        }
        switch answer {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(OpenFileRange(descriptor: descriptor, offset: 0, length: size)))
        case .unsatisfiable:
            close(descriptor)
            headers.append(("Content-Range", "bytes */\(size)"))
            return HTTPResponse(status: 416, headers: headers, body: .bytes(Data("the range is outside the archive's \(size) bytes\n".utf8)))
        case .partial(let offset, let length):
            headers.append(("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(size)"))
            return HTTPResponse(status: 206, headers: headers, body: .file(OpenFileRange(descriptor: descriptor, offset: offset, length: length)))
        }
    }

    private func asset(named name: String) -> HTTPResponse {
        guard let folder = settings.assetsFolder else {
            return .text(404, "no assets folder is served (tilesync serve --assets DIR)")
        }
        guard let first = name.first, first != ".", name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            return .text(404, "no such asset")
        }
        let types = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "json": "application/json",
                     "png": "image/png", "svg": "image/svg+xml", "map": "application/json"]
        let descriptor = open(folder + "/" + name, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            if descriptor >= 0 { close(descriptor) }
            return .text(404, "no asset \(name) in the assets folder")
        }
        let type = types[String(name.split(separator: ".").last ?? "")] ?? "application/octet-stream"
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=3600")],
                            body: .file(OpenFileRange(descriptor: descriptor, offset: 0, length: UInt64(status.st_size))))
    }
}
