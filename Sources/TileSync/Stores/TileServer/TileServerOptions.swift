import Foundation

/// How a tile server source is asked, politely by default (public tile servers forbid bulk
/// scraping): 2 requests in flight, an optional rate, a User-Agent naming TileSync and its
/// version (plus the user's contact details), extra headers for API keys (never printed), and
/// the subdomains of `{s}`.
struct TileServerOptions: Sendable {
    /// Requests in flight at once when none is given.
    static let defaultConnections = 2
    /// The User-Agent every request sends, before the user's addition.
    static let userAgentPrefix = "tilesync/\(TileSyncVersion.current)"

    /// Requests in flight at once, 1...64.
    var connections: Int
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

    static let optionNames: Set<String> = [TileServerConnectionsOption.name, TileServerRateOption.name, TileServerUserAgentOption.name,
                                           TileServerHeaderOption.name, TileServerSubdomainsOption.name,
                                           TileServerRevalidateOption.name]

    /// Reads the typed options.
    /// - Throws: `TileStoreError` `.invalidOptions` for a header that is not `Name: value`.
    init(_ options: TileStoreOptions, store: String) throws(TileStoreError) {
        connections = options.tileServerConnections ?? Self.defaultConnections
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

    /// `--connections`, `--rate`, `--user-agent`, `--header` (repeatable), `--subdomains`, `--revalidate`.
    static let commandLineOptions: [TileStoreOptions.CommandLineOption] = [
        TileStoreOptions.CommandLineOption(name: TileServerConnectionsOption.name, placeholder: "n",
                                   help: "Requests a tile server source keeps in flight (default \(defaultConnections)).",
                                   uses: [.read], recipients: .storesReadingIt) { value, options throws(TileStoreOptions.ValueError) in
            guard let count = Int(value), (1...64).contains(count) else {
                throw TileStoreOptions.ValueError("must be a whole number in 1...64, not '\(value)'")
            }
            options.tileServerConnections = count
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
