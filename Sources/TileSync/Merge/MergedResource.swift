/// What holds a merge: its sources. It exists when every source does, and is the same store as
/// anything one of its sources is (so a merge into one of its own sources is refused).
struct MergedResource: TileStoreLocation.Resource {
    let sources: [TileStoreLocation]

    var exists: Bool { sources.allSatisfy { $0.resource.exists } }
    var identity: String { sources.map(\.resource.identity).joined(separator: " + ") }

    func refersToSameStore(as other: any TileStoreLocation.Resource) -> Bool {
        sources.contains { $0.resource.refersToSameStore(as: other) || other.refersToSameStore(as: $0.resource) }
    }

    func removeStore() {}
}
