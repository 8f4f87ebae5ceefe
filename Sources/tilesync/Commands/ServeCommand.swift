import Dispatch
import Foundation
import TileSync

/// `tilesync serve [NAME=]STORE ...`: the stores over HTTP (libmicrohttpd) with TileJSON, a
/// preview map per store and, for local PMTiles archives, the archive itself with ranges.
struct ServeCommand: Command {
    static let host = OptionDefinition.value("host", "address", help: "The address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every\ninterface).")
    static let port = OptionDefinition.value("port", "number", help: "The port to listen on (default 8080; 0 picks a free one and prints it).")
    static let publicURL = OptionDefinition.value(
        "public-url", "url", help: "The base of the tile URLs in TileJSON (default: http:// and the\nrequest's Host header), e.g. behind a proxy: https://tiles.example.com.")
    static let corsOrigin = OptionDefinition.value(
        "cors-origin", "origin", help: "Access-Control-Allow-Origin on every answer (default *; none to send\nno CORS headers).")
    static let cacheControl = OptionDefinition.value(
        "cache-control", "value", help: "Cache-Control of tiles and TileJSON (default no-cache: caches\nrevalidate with the ETag and get 304).")
    static let empty204 = OptionDefinition.flag("empty-204", help: "Answer a tile the store lacks with 204 No Content instead of 404.")
    static let assets = OptionDefinition.value(
        "assets", "folder", help: "A folder with maplibre-gl.js and maplibre-gl.css for the preview pages\n(default: loaded from unpkg.com), for machines without internet.")
    static let threads = OptionDefinition.value("threads", "count", help: "Server threads (default: twice the cores, as a tile read blocks its\nthread; eight times with a remote store).")
    static let timeout = OptionDefinition.value(
        "timeout", "seconds", help: "Close a connection idle this long: between requests, or while a\nrequest does not come whole, however slowly it trickles (default 60,\nas nginx).")
    static let connectionsPerClient = OptionDefinition.value(
        "max-connections-per-client", "n", help: "Connections one client address may hold open (default 256); a new\none takes the place of its connection idle longest, and is refused only\nwhen all of them have a request in progress.")
    static let verbose = OptionDefinition.flag("verbose", help: "Print a line per request on stderr.")

    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve tile stores over HTTP with TileJSON and a preview map.",
        discussion: """
            Each store is served under a name, its file name without the extension or NAME from
            NAME=STORE; stores given under one name are merged in the order given (see
            --on-duplicate). For each store:
              /NAME/{z}/{x}/{y}.EXT   a tile (XYZ rows), the store's bytes unchanged, with
                                      Content-Type, Content-Encoding for compressed vector tiles
                                      (decompressed for a client whose Accept-Encoding does not
                                      take it), ETag (the MD5 of the bytes sent; If-None-Match
                                      gives 304) and CORS
              /NAME.json              TileJSON 3.0.0
              /NAME/                  a MapLibre GL JS preview fitted to the bounds (vector tiles
                                      drawn from vector_layers, tile boundaries, feature properties)
              /NAME.pmtiles           a local PMTiles archive whole, with Range requests
            and / lists the stores. A missing tile is 404 (204 with --empty-204); a bad path,
            zoom or coordinate 400; a method other than GET, HEAD or OPTIONS 405.
            A store that a sync or apply replaces while it is served is reopened; each request
            is answered from one version. Ctrl-C stops the server and prints how many requests
            were answered.
            """,
        arguments: [.init(name: "store", help: "A store to serve, or NAME=STORE to choose its name in URLs (a file\nwhose own name has an = is taken whole).", isVariadic: true)],
        options: [host, port, publicURL, corsOrigin, cacheControl, empty204, assets, threads, timeout, connectionsPerClient, verbose, StorePairOptions.onDuplicate,
                  LayoutOptions.Role.store.layout, LayoutOptions.Role.store.scheme] + StoreKindOptions.definitions(for: [.read]),
        examples: [
            "tilesync serve world.mbtiles",
            "tilesync serve osm=planet.pmtiles s3://bucket/hillshade --port 9000",
            "tilesync serve base=base.mbtiles base=detail.pmtiles --on-duplicate override",
            "tilesync serve tiles/ --assets /usr/share/maplibre --host 0.0.0.0",
        ])

    static let catchesSignals = true
    static let interruptGrace = 10.0

    /// The stores by name, each one location (a merge for a name given several times).
    let named: [(name: String, location: TileStoreLocation)]
    let hostName: String
    let portNumber: Int
    let settings: ServeSettings
    let threadCount: Int?
    let limits: MicroHTTPDaemon.Limits
    let logsRequests: Bool

    init(parsing arguments: ParsedArguments) throws {
        let layout = try LayoutOptions(arguments, role: .store)
        let kindOptions = StoreKindOptions(arguments, uses: [.read])
        var options = TileStoreOptions()
        layout.apply(to: &options)
        var grouped: [(name: String, locations: [TileStoreLocation])] = []
        for text in arguments.positionals {
            var name: String?, address = text
            if let equals = text.firstIndex(of: "="), !FileManager.default.fileExists(atPath: text),
               text[..<equals].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) {
                name = String(text[..<equals])
                address = String(text[text.index(after: equals)...])
            }
            let location = try StoreArgument.location(address, options: options, kindOptions: kindOptions, use: .read,
                                                      flags: { _ in layout.given.joined(separator: " and ") }, spec: arguments.spec)
            let chosen = name ?? ServedStore.defaultName(for: address)
            guard ServedStore.isValidName(chosen) else {
                throw UsageError("\(chosen.debugDescription) cannot name a store in URLs: use letters, digits, '.', '_' and '-', not first '.' or '_'", spec: arguments.spec)
            }
            if let at = grouped.firstIndex(where: { $0.name == chosen }) {
                guard name != nil else {
                    throw UsageError("two stores are named \(chosen) (give one another name: NAME=\(address))", spec: arguments.spec)
                }
                grouped[at].locations.append(location)
            } else {
                grouped.append((chosen, [location]))
            }
        }
        try kindOptions.check(grouped.flatMap(\.locations))
        let policy = try arguments.choice(StorePairOptions.onDuplicate, as: MergedStoreKind.DuplicatePolicy.self) ?? .abort
        named = grouped.map { group in
            group.locations.count == 1 ? (group.name, group.locations[0]) : (group.name, MergedStoreKind(sources: group.locations, policy: policy).location)
        }
        hostName = arguments.value(Self.host) ?? "127.0.0.1"
        portNumber = try arguments.integer(Self.port, in: 0...65535) ?? 8080
        threadCount = try arguments.integer(Self.threads, in: 1...1024)
        var limits = MicroHTTPDaemon.Limits()
        limits.timeout = try arguments.integer(Self.timeout, in: 1...3600) ?? limits.timeout
        limits.connectionsPerClient = try arguments.integer(Self.connectionsPerClient, in: 1...65536) ?? limits.connectionsPerClient
        self.limits = limits
        logsRequests = arguments.flag(Self.verbose)
        settings = try Self.settings(arguments)
    }

    /// The answers' options: CORS, caching, the public URL, the assets folder, 204 for missing tiles.
    private static func settings(_ arguments: ParsedArguments) throws -> ServeSettings {
        var settings = ServeSettings()
        if let origin = arguments.value(Self.corsOrigin) {
            guard !origin.isEmpty, origin.allSatisfy({ $0.isASCII && !$0.isNewline }) else {
                throw UsageError("--cors-origin takes an origin, * or none", spec: arguments.spec)
            }
            settings.corsOrigin = origin == "none" ? nil : origin
        }
        if let value = arguments.value(Self.cacheControl) {
            guard value.allSatisfy({ $0.isASCII && !$0.isNewline }) else { throw UsageError("--cache-control takes one line of ASCII", spec: arguments.spec) }
            settings.cacheControl = value
        }
        if let url = arguments.value(Self.publicURL) {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil, parsed.query == nil else {
                throw UsageError("--public-url takes an http:// or https:// URL without a query, e.g. https://tiles.example.com", spec: arguments.spec)
            }
            settings.publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        if let folder = arguments.value(Self.assets) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw UsageError("--assets \(folder): no such folder", spec: arguments.spec)
            }
            guard FileManager.default.fileExists(atPath: folder + "/maplibre-gl.js") else {
                throw UsageError("--assets \(folder): it has no maplibre-gl.js (the dist folder of MapLibre GL JS)", spec: arguments.spec)
            }
            settings.assetsFolder = folder
        }
        settings.missingTileStatus = arguments.flag(Self.empty204) ? 204 : 404
        return settings
    }

    func run(cancellation: CancellationFlag) throws -> Int32 {
        var stores: [ServedStore] = []
        for (name, location) in named {
            stores.append(try ServedStore(name: name, location: location))
        }
        let threads = threadCount ?? ProcessInfo.processInfo.activeProcessorCount * (stores.contains { $0.current().isRemote } ? 8 : 2)
        let tally = ServeTally()
        let logsRequests = logsRequests
        let daemon: MicroHTTPDaemon
        do {
            daemon = try MicroHTTPDaemon(host: hostName, port: portNumber, threads: threads, limits: limits)
        } catch let error as MicroHTTPDaemon.StartError {
            throw TileStoreError(.io, store: MicroHTTPDaemon.display(host: hostName, port: portNumber), message: error.description)
        }
        let address = MicroHTTPDaemon.display(host: hostName, port: daemon.port)
        let router = ServeRouter(stores: stores, settings: settings, listenAddress: address)
        do {
            try daemon.start { request in
                let started = logsRequests ? DispatchTime.now() : DispatchTime(uptimeNanoseconds: 0)
                let response = router.respond(to: request)
                tally.record(status: response.status, bodyBytes: request.method == "HEAD" ? 0 : response.bodyLength)
                if logsRequests {
                    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
                    Terminal.err("\(request.method) \(request.path.prefix(300)) \(response.status) \(response.bodyLength) B "
                        + String(format: "%.2f ms", milliseconds))
                }
                return response
            }
        } catch let error as MicroHTTPDaemon.StartError {
            throw TileStoreError(.io, store: address, message: error.description)
        }
        let shown = hostName == "0.0.0.0" || hostName == "::" ? MicroHTTPDaemon.display(host: "127.0.0.1", port: daemon.port) : address
        Terminal.out("Serving \(stores.count) " + (stores.count == 1 ? "store" : "stores") + " at http://\(shown)/ (Ctrl-C stops)")
        for store in stores {
            let version = store.current()
            Terminal.out("  http://\(shown)/\(store.name)/  \(version.kindName) \(store.location.address), \(version.format.fileExtension) tiles")
        }
        while !cancellation.isSet {
            usleep(100_000)
        }
        daemon.stop()
        Terminal.out(tally.summary)
        return 0
    }
}
