import Foundation

/// Tiles of a tile server read `TileServerClient.requestsInFlight` requests at a time, handed out as they arrive (so in
/// no fixed order): a tile the server does not have (404, 204, an empty body) is counted and
/// passed over; a body that is not a tile of the declared format (an HTML error page) is an
/// invalid tile; a request that fails for good (401, 403, retries spent) ends the read naming
/// the tile. With a download state, each tile of the plan is first looked up there
/// (`TileDownloadStep`): taken without a request, passed over, or asked for (conditionally),
/// and every answer is remembered as it arrives. `needsBytes` false lets a tile known by its
/// size and MD5 alone be handed out as such (an index). A filter with a tile list (an expire
/// list) asks every listed tile again, however fresh its record: it is listed because it changed.
final class TileServerCursor: TileCursor {
    private let reader: TileServerReader
    private let downloads: TileDownloadState?
    private let needsBytes: Bool
    private let asksAgain: Bool
    private var plan: AnyIterator<TileCoordinate>
    private let arrivals = TileServerArrivals()
    private var inFlight = 0
    private var ready: [TileServerItem] = []
    private(set) var skipped = SkippedItems()

    init(reader: TileServerReader, filter: TileFilter, needsBytes: Bool = true) {
        self.reader = reader
        downloads = reader.downloads
        self.needsBytes = needsBytes
        asksAgain = filter.tiles != nil
        plan = TileServerPlan(filter: filter).makeIterator()
    }

    func next() throws -> Tile? {
        while let item = try nextItem() {
            switch item {
            case .fetched(let tile, _): return tile
            case .known(let entry):
                throw TileStoreError(.io, store: reader.location.address, item: "tile \(entry.coordinate)", message: "has no bytes at hand")
            }
        }
        return nil
    }

    /// The next tile fetched or known, nil at the end of the plan.
    func nextItem() throws -> TileServerItem? {
        while true {
            if reader.isCancelled() {
                rememberAnswersInFlight()
                throw TileStoreError(.interrupted, store: reader.location.address, message: "interrupted")
            }
            if !ready.isEmpty { return ready.removeFirst() }
            while inFlight < reader.client.requestsInFlight, ready.isEmpty, let coordinate = plan.next() {
                try begin(coordinate)
            }
            if !ready.isEmpty { continue }
            guard inFlight > 0, let (coordinate, result) = arrivals.next() else { return nil }
            inFlight -= 1
            if let item = try settle(coordinate, result) { return item }
        }
    }

    /// Takes a tile of the plan from the download state, or asks for it.
    private func begin(_ coordinate: TileCoordinate) throws {
        switch downloads?.step(for: coordinate, needsBytes: needsBytes, revalidating: asksAgain) ?? .ask(ifChanged: nil) {
        case .skip:
            reader.tally { $0.reusedHoles += 1 }
        case .use(let record):
            if let item = item(from: record, at: coordinate) {
                reader.tally { $0.reusedTiles += 1 }
                ready.append(item)
            } else {
                try ask(coordinate, ifChanged: nil)
            }
        case .ask(let validators):
            try ask(coordinate, ifChanged: validators)
        }
    }

    /// The tile a record stands for: its bytes from the partial store, or (without
    /// `needsBytes`) its size and MD5; nil when the bytes are not at hand.
    private func item(from record: TileDownloadRecord, at coordinate: TileCoordinate) -> TileServerItem? {
        guard let hash = record.hash else { return nil }
        if !needsBytes { return .known(TileIndexEntry(coordinate: coordinate, size: record.size, hash: hash)) }
        return downloads?.bytes(at: coordinate, record: record).map { .fetched(Tile(coordinate: coordinate, data: $0), hash) }
    }

    private func ask(_ coordinate: TileCoordinate, ifChanged validators: TileServerValidators?) throws {
        guard let url = reader.endpoint.url(for: coordinate) else {
            throw TileStoreError(.invalidOptions, store: reader.location.address, item: "tile \(coordinate)", message: "makes no valid URL")
        }
        inFlight += 1
        let arrivals = arrivals
        reader.client.fetch(url, ifChanged: validators) { arrivals.add(coordinate, $0) }
    }

    /// On interruption: the answers already on their way (for up to 2 s) are remembered, so the
    /// next run does not ask for them again.
    private func rememberAnswersInFlight() {
        guard downloads != nil else { return }
        let deadline = DispatchTime.now() + 2
        while inFlight > 0, let (coordinate, result) = arrivals.next(before: deadline) {
            inFlight -= 1
            _ = try? settle(coordinate, result)
        }
    }

    /// What an answer comes to: a tile, nothing (a hole, or a tile asked for again), or an error.
    private func settle(_ coordinate: TileCoordinate, _ result: Result<TileServerAnswer, HTTPError>) throws -> TileServerItem? {
        do {
            switch result {
            case .success(.tile(let data, let validators)):
                reader.tally { $0.requested += 1 }
                try reader.check(data, coordinate: coordinate)
                let hash = downloads != nil || !needsBytes ? ContentHash(of: data) : nil
                if let downloads, let hash { try downloads.remember(data, hash: hash, at: coordinate, validators: validators) }
                return .fetched(Tile(coordinate: coordinate, data: data), hash)
            case .success(.noTile(_, let validators)):
                reader.tally { $0.requested += 1; $0.missing += 1 }
                try downloads?.rememberHole(at: coordinate, validators: validators)
                return nil
            case .success(.notModified(let validators)):
                reader.tally { $0.requested += 1; $0.notModified += 1 }
                guard let record = try downloads?.refresh(at: coordinate, validators: validators) else {
                    throw TileStoreError(.io, store: reader.location.address, item: "tile \(coordinate)",
                                         message: "the server answered 304 Not Modified to a request that was not conditional")
                }
                if let item = item(from: record, at: coordinate) { return item }
                try ask(coordinate, ifChanged: nil)
                return nil
            case .failure(let error):
                throw TileStoreError(.io, store: reader.location.address, item: "tile \(coordinate)", message: error.description, hint: error.hint)
            }
        } catch let error as SQLiteError {
            throw TileStoreError(.io, store: downloads?.path ?? reader.location.address, item: "tile \(coordinate)",
                                 message: "cannot remember the answer: \(error)")
        }
    }
}
