/// The head coordinates of a merge's inputs as a binary min-heap on (sort key in the merge's
/// order, input position): the next coordinate and the inputs holding it come out in O(log n)
/// per input, however many inputs there are. The heap orders small (key, input) pairs; each
/// input's coordinate waits beside it, by position.
struct MergeHeadHeap {
    private var items: [(key: Int, input: Int)] = []
    private var coordinates: [TileCoordinate] = []

    /// The sort key of the smallest coordinate; nil when the heap is empty.
    var smallestKey: Int? { items.first?.key }

    /// Adds an input's head.
    mutating func push(_ coordinate: TileCoordinate, input: Int, order: TileOrder) {
        if input >= coordinates.count {
            coordinates.append(contentsOf: repeatElement(coordinate, count: input + 1 - coordinates.count))
        }
        coordinates[input] = coordinate
        items.append((order.sortKey(coordinate), input))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the smallest coordinate and every input whose head it is, put in `inputs` (emptied
    /// first) in ascending input position; nil when the heap is empty.
    mutating func popSmallest(into inputs: inout [Int]) -> TileCoordinate? {
        inputs.removeAll(keepingCapacity: true)
        guard let top = items.first else { return nil }
        while let next = items.first, next.key == top.key {
            inputs.append(next.input)
            removeFirst()
        }
        return coordinates[top.input]
    }

    private mutating func removeFirst() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, Self.before(items[left], items[smallest]) { smallest = left }
            if right < items.count, Self.before(items[right], items[smallest]) { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private static func before(_ a: (key: Int, input: Int), _ b: (key: Int, input: Int)) -> Bool {
        a.key != b.key ? a.key < b.key : a.input < b.input
    }
}
