import TileSync

/// `--endpoint`, `--transfers` and `--cache-control`: options of `s3://` stores, given to
/// whichever store of a command is one.
struct ObjectStorageOptions {
    static let endpoint = OptionDefinition.value(
        S3EndpointOption.name, "url", help: "S3 server of s3:// stores and archives (default:\nAWS_ENDPOINT_URL, the profile's endpoint_url, else AWS).")
    static let transfers = OptionDefinition.value(
        S3TransfersOption.name, "n", help: "Requests in flight for s3:// and http(s):// stores (default \(S3Configuration.defaultTransfers)).")
    static let cacheControl = OptionDefinition.value(
        S3CacheControlOption.name, "text", help: "Cache-Control header of objects written to s3://.")

    /// Every option; `writes` adds `--cache-control`.
    static func definitions(writes: Bool) -> [OptionDefinition] {
        writes ? [endpoint, transfers, cacheControl] : [endpoint, transfers]
    }

    private let endpointValue: String?
    private let transfersValue: Int?
    private let cacheControlValue: String?
    private let given: [OptionDefinition]

    /// - Throws: `UsageError` for a transfer count outside 1...1024.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        endpointValue = arguments.value(Self.endpoint)
        transfersValue = try arguments.integer(Self.transfers, in: 1...1024)
        cacheControlValue = arguments.value(Self.cacheControl)
        given = [Self.endpoint, Self.transfers, Self.cacheControl].filter { arguments.isGiven($0) }
    }

    /// Sets the options on `location` when its kind reads them.
    func attach(to location: inout TileStoreLocation) {
        let reads = location.kind.optionNames
        if let endpointValue, reads.contains(S3EndpointOption.name) { location.options.s3Endpoint = endpointValue }
        if let transfersValue, reads.contains(S3TransfersOption.name) { location.options.s3Transfers = transfersValue }
        if let cacheControlValue, reads.contains(S3CacheControlOption.name) { location.options.s3CacheControl = cacheControlValue }
    }

    /// Refuses options given for a command whose stores none read.
    /// - Throws: `UsageError` naming the first such option.
    func check(_ locations: [TileStoreLocation], spec: CommandSpec) throws(UsageError) {
        for option in given where !locations.contains(where: { $0.kind.optionNames.contains(option.name) }) {
            throw UsageError("\(option.flagText) applies to s3:// stores and PMTiles archives, and no store here is one", spec: spec)
        }
    }
}
