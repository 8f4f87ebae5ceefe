import Foundation

/// How a tile server source is asked, politely by default (public tile servers forbid bulk
/// scraping): over HTTP/1.1 2 connections with a request at a time on each, over HTTP/2 one
/// connection carrying 32 requests at once (as many streams as the server allows), an optional rate, a User-Agent naming TileSync and its
/// version (plus the user's contact details), extra headers for API keys (never printed), and
/// the subdomains of `{s}`.
struct TileServerOptions: Sendable {
    /// Connections when none is given.
    static let defaultConnections = 2
    /// Requests on one HTTP/2 connection when none is given: enough to keep a line 100 ms away busy.
    static let defaultStreams = 32
    /// The User-Agent every request sends, before the user's addition.
    static let userAgentPrefix = "tilesync/\(TileSyncVersion.current)"

    /// Connections to the server, 1...64 (over HTTP/1.1 the requests on the wire).
    var connections: Int
    /// Requests in flight on one HTTP/2 connection, 1...256.
    var streams: Int
    /// A PEM file of certificate authorities to trust.
    var certificates: String?
    /// Requests per second at most, nil for no limit.
    var requestsPerSecond: Double?
    /// The whole User-Agent header.
    var userAgent: String
    /// Extra request headers (name, value).
    var headers: [Header]
    /// What `{s}` takes.
    var subdomains: [String]
    /// A sync asks for every tile again (conditionally), fresh or not.
    var revalidate: Bool

    /// One request header.
    struct Header: Sendable, Equatable {
        let name: String
        let value: String
    }

    static let optionNames: Set<String> = [TileServerConnectionsOption.name, TileServerStreamsOption.name,
                                           TileServerCertificatesOption.name, TileServerRateOption.name, TileServerUserAgentOption.name,
                                           TileServerHeaderOption.name, TileServerSubdomainsOption.name,
                                           TileServerRevalidateOption.name]

    /// Reads the typed options.
    /// - Throws: `TileStoreError` `.invalidOptions` for a header that is not `Name: value`.
    init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
        connections = options.tileServerConnections ?? Self.defaultConnections
        streams = options.tileServerStreams ?? Self.defaultStreams
        certificates = options.tileServerCertificates
        requestsPerSecond = options.tileServerRate
        userAgent = Self.userAgentPrefix + (options.tileServerUserAgent.map { " " + $0 } ?? "")
        subdomains = options.tileServerSubdomains.map(TileURLTemplate.subdomains) ?? []
        revalidate = options.tileServerRevalidate ?? false
        headers = []
        for line in (options.tileServerHeader ?? "").split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"),
                  case let name = line[..<colon].trimmingCharacters(in: .whitespaces), !name.isEmpty,
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
            else {
                throw TileStoreError(.invalidOptions, store: store, item: "option header",
                                     message: "a header must be 'Name: value' (the value is not shown here)")
            }
            headers.append(Header(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
    }

    /// How the transport connects.
    var connectionSettings: HTTPConnectionSettings {
        HTTPConnectionSettings(connections: connections, streams: streams, certificates: certificates)
    }

    /// `--connections`, `--streams`, `--cacert`, `--rate`, `--user-agent`, `--header` (repeatable), `--subdomains`, `--revalidate`.
    static let commandLineOptions: [TileStoreOptions.CommandLineOption] = [
        TileStoreOptions.CommandLineOption(name: TileServerConnectionsOption.name, placeholder: "n",
                                   help: "Connections to a tile server source (default \(defaultConnections)); over\nHTTP/1.1 one request at a time on each.",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            options.tileServerConnections = try TileStoreOptions.ValueError.wholeNumber(value, in: 1...64)
        },
        TileStoreOptions.CommandLineOption(name: TileServerStreamsOption.name, placeholder: "n",
                                   help: "Requests in flight on one HTTP/2 connection to a tile server\n(default \(defaultStreams); the server's limit caps it).",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            options.tileServerStreams = try TileStoreOptions.ValueError.wholeNumber(value, in: 1...256)
        },
        TileStoreOptions.CommandLineOption(name: TileServerCertificatesOption.name, placeholder: "file",
                                   help: "Trust the certificate authorities in this PEM file for a tile\nserver over HTTPS (a private CA; also CURL_CA_BUNDLE, SSL_CERT_FILE).",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            guard FileManager.default.isReadableFile(atPath: value) else {
                throw TileStoreOptions.ValueError("cannot read the certificate file '\(value)'")
            }
            options.tileServerCertificates = value
        },
        TileStoreOptions.CommandLineOption(name: TileServerRateOption.name, placeholder: "n",
                                   help: "Requests per second at most to a tile server source.",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            guard let rate = Double(value), rate.isFinite, rate > 0 else {
                throw TileStoreOptions.ValueError("must be a number of requests per second above 0, not '\(value)'")
            }
            options.tileServerRate = rate
        },
        TileStoreOptions.CommandLineOption(name: TileServerUserAgentOption.name, placeholder: "text",
                                   help: "Added to the User-Agent '\(userAgentPrefix)' sent to a tile\nserver (contact details, as tile usage policies ask).",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            options.tileServerUserAgent = value
        },
        TileStoreOptions.CommandLineOption(name: TileServerHeaderOption.name, placeholder: "'name: value'",
                                   help: "A request header for a tile server source (an API key);\nrepeatable; never printed.",
                                   uses: [.read], recipients: .storesReadingIt, isRepeatable: true) { value, options throws(TileStoreOptions.ValueError) in
            options.tileServerHeader = value
        },
        TileStoreOptions.CommandLineOption(name: TileServerSubdomainsOption.name, placeholder: "abc",
                                   help: "What {s} of a tile URL takes: one letter each (abc) or a,b,c.",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            guard !TileURLTemplate.subdomains(value).isEmpty else { throw TileStoreOptions.ValueError("must name at least one subdomain") }
            options.tileServerSubdomains = value
        },
        TileStoreOptions.CommandLineOption(name: TileServerRevalidateOption.name, placeholder: nil,
                                   help: "Ask a tile server source for every tile again (conditionally:\na 304 costs no body), also those still fresh.",
                                   uses: [.read], recipients: .storesReadingIt) { _, options throws(TileStoreOptions.ValueError) in
            options.tileServerRevalidate = true
        },
    ]
}
