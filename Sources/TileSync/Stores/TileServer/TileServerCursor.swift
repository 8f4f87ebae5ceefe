import Foundation

/// Tiles of a tile server read `window` requests at a time, handed out as they arrive (so in
/// no fixed order): a tile the server does not have (404, 204, an empty body) is counted and
/// passed over; a body that is not a tile of the declared format (an HTML error page) is an
/// invalid tile; a request that fails for good (401, 403, retries spent) ends the read naming
/// the tile.
final class TileServerCursor: TileCursor {
    private let reader: TileServerReader
    private var plan: AnyIterator<TileCoordinate>
    private let window: Int
    private let arrivals = TileServerArrivals()
    private var inFlight = 0
    private(set) var skipped = SkippedItems()

    init(reader: TileServerReader, filter: TileFilter) {
        self.reader = reader
        plan = TileServerPlan(filter: filter).makeIterator()
        window = max(1, reader.client.options.connections) * 2
    }

    func next() throws -> Tile? {
        while true {
            if reader.isCancelled() {
                throw TileStoreError(.interrupted, store: reader.location.address, message: "interrupted")
            }
            while inFlight < window, let coordinate = plan.next() {
                guard let url = reader.endpoint.url(for: coordinate) else {
                    throw TileStoreError(.invalidOptions, store: reader.location.address, item: "tile \(coordinate)", message: "makes no valid URL")
                }
                inFlight += 1
                let arrivals = arrivals
                reader.client.fetch(url) { arrivals.add(coordinate, $0) }
            }
            guard inFlight > 0, let (coordinate, result) = arrivals.next() else { return nil }
            inFlight -= 1
            switch result {
            case .success(.tile(let data)):
                reader.count(missing: false)
                try reader.check(data, coordinate: coordinate)
                return Tile(coordinate: coordinate, data: data)
            case .success(.noTile):
                reader.count(missing: true)
            case .failure(let error):
                throw TileStoreError(.io, store: reader.location.address, item: "tile \(coordinate)", message: error.description, hint: error.hint)
            }
        }
    }
}
