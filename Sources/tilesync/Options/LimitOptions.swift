import TileSync

/// `--max-tiles N` and `--no-space-check`: what a run refuses before its first write.
struct LimitOptions {
    static let maxTiles = OptionDefinition.value("max-tiles", "N",
                                                 help: "Refuse a source of more than N tiles, counted before the\nfirst write where it can say (PMTiles, MBTiles, tile servers);\ndefault \(TileAmountLimits.defaultMaxTiles), for tile servers \(TileAmountLimits.defaultMaxRequestedTiles).")
    static let noSpaceCheck = OptionDefinition.flag("no-space-check",
                                                    help: "Write even when the tiles look larger than the\ndestination's free space.")
    static let definitions = [maxTiles, noSpaceCheck]

    let limits: TileAmountLimits

    /// - Throws: `UsageError` for a count that is not a whole number from 1 up.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        var limits = TileAmountLimits()
        if let count = try arguments.integer(Self.maxTiles, in: 1...Int.max) {
            limits.maxTiles = count
            limits.maxRequestedTiles = count
        }
        limits.checksFreeSpace = !arguments.flag(Self.noSpaceCheck)
        self.limits = limits
    }
}
