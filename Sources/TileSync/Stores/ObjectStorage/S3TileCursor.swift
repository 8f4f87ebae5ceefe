import Foundation
import Synchronization

/// The tiles of an `s3://` store: its listing, with the objects fetched `transfers` at a time
/// ahead of the caller and handed out in listing order. Each body is checked against the
/// listed size; a tile that vanished since the listing is skipped and counted.
final class S3TileCursor: TileCursor {
    private let store: S3TileStore
    private let listing: S3ListingCursor
    private var window: [(tile: S3ListedTile, result: S3ResultWaiter)] = []
    private var listingEnded = false
    private var listingError: (any Error)?
    private var vanished = SkippedItems()

    init(store: S3TileStore, template: PathTemplate, filter: TileFilter) {
        self.store = store
        listing = S3ListingCursor(store: store, template: template, filter: filter)
    }

    var skipped: SkippedItems { listing.skipped.adding(vanished) }

    func next() throws -> Tile? {
        while true {
            fill()
            guard !window.isEmpty else {
                if let error = listingError {
                    listingError = nil
                    throw error
                }
                return nil
            }
            let (listed, pending) = window.removeFirst()
            let answer: S3Response
            switch pending.wait() {
            case .success(let got): answer = got
            case .failure(let error): throw store.storeError(error)
            }
            let data: Data?
            do {
                data = try S3Client.objectBytes(answer, key: listed.key)
            } catch {
                throw TileStoreError(.invalidTile, store: store.location.address, item: "object \(listed.key)", message: error.message)
            }
            guard let data else {
                vanished.record("object \(listed.key)", reason: "deleted since it was listed")
                continue
            }
            guard data.count == listed.entry.size else {
                throw TileStoreError(.invalidTile, store: store.location.address, item: "object \(listed.key)",
                                     message: "\(data.count) bytes where the listing said \(listed.entry.size)")
            }
            return Tile(coordinate: listed.entry.coordinate, data: data)
        }
    }

    private func fill() {
        while window.count < store.transfers && !listingEnded && listingError == nil {
            do {
                guard let listed = try listing.nextObject() else {
                    listingEnded = true
                    return
                }
                let pending = S3ResultWaiter()
                store.client.start(S3Client.getRequest(listed.key), accepting: [404]) { pending.finish($0) }
                window.append((listed, pending))
            } catch {
                listingError = error
            }
        }
    }
}
