import Testing
@testable import TileSync

@Suite("Skipped items")
struct SkippedItemsTests {
    @Test("Adding two counts keeps every count and at most 20 names, the first ones first")
    func adding() {
        var first = SkippedItems()
        for index in 0..<15 { first.record("a\(index)", reason: "r") }
        var second = SkippedItems()
        for index in 0..<30 { second.record("b\(index)", reason: "s") }
        let all = first.adding(second)
        #expect(all.count == 45)
        #expect(all.named.count == 20)
        #expect(all.named.first == SkippedItems.Item(item: "a0", reason: "r"))
        #expect(all.named.last == SkippedItems.Item(item: "b4", reason: "s"))
        #expect(SkippedItems().adding(SkippedItems()) == SkippedItems())
    }
}
