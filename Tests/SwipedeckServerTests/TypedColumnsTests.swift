import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The domain's enums and sets as columns, on the engine of this run: stored as the same text
/// they always were, read back as the same values, and a text naming no case is an error on read
/// (never a crash, never quietly a default).
@Suite("Typed columns (both engines)")
struct TypedColumnsTests {
    /// The row of `table` whose column `keyColumn` is `key`, as `RawTables` reads it.
    static func rawRow(_ store: any SwipeStore, _ table: String, where keyColumn: String, is key: CopyValue)
        async throws -> [CopyValue]
    {
        let raw = try #require(store as? any RawTables)
        let t = try #require(CopyTable.all.first { $0.name == table })
        let at = try #require(t.columns.firstIndex { $0.name == keyColumn })
        let rows = try await raw.readRows(t, after: nil, limit: 1000)
        return try #require(rows.first { $0.values[at] == key }).values
    }

    /// Inserts a copy of `row` into `table` with the given columns replaced.
    static func insertCopy(
        _ store: any SwipeStore, _ table: String, of row: [CopyValue], with changes: [String: CopyValue]
    ) async throws {
        let raw = try #require(store as? any RawTables)
        let t = try #require(CopyTable.all.first { $0.name == table })
        var copy = row
        for (name, value) in changes { copy[try #require(t.columns.firstIndex { $0.name == name })] = value }
        try await raw.writeRows(t, [copy])
    }

    @Test("countedInputs round-trips as a set and is stored as the same comma-separated text, in declaration order")
    func countedInputsRoundTrip() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let input = DeckInput(slug: "set", title: "Set", cards: [DeckInput.CardInput(title: "a")])
            var (deck, rows) = try input.validated(now: fixedTime)
            deck.countedInputs = [.api, .drag]
            deck.cardOrder = .shuffled
            _ = try await store.importDeck(deck, cards: rows)
            let back = try #require(try await store.deck(slug: "set"))
            #expect(back.countedInputs == [.drag, .api])
            #expect(back.cardOrder == .shuffled)
            let raw = try await Self.rawRow(store, "decks", where: "slug", is: .text("set"))
            #expect(raw.contains(.text("drag,api")) && raw.contains(.text("shuffled")), "\(raw)")
        }
    }

    @Test(
        "a stored text that names no case fails the read with an error",
        arguments: [
            ("cardOrder", CopyValue.text("sideways")), ("countedInputs", .text("drag,telepathy")),
            ("countedInputs", .text("")),
            ("access", .text("everyone")),
        ])
    func unknownDeckValue(column: String, value: CopyValue) async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, _) = try await StoreContractTests.importDeck(store, slug: "good", cards: 1)
            let row = try await Self.rawRow(store, "decks", where: "slug", is: .text("good"))
            try await Self.insertCopy(
                store, "decks", of: row,
                with: [
                    "id": .int(deck.id + 100), "slug": .text("odd"), column: value,
                ])
            await #expect(throws: (any Error).self) { try await store.deck(slug: "odd") }
            #expect(try await store.deck(slug: "good")?.countedInputs == Set(CountedInput.allCases))
        }
    }

    @Test(
        "a stored swipe whose direction or input names no case fails the read with an error",
        arguments: [
            ("direction", "sideways"), ("direction", "upLeft"), ("input", "telepathy"),
        ])
    func unknownSwipeValue(column: String, text: String) async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, cards) = try await StoreContractTests.importDeck(store, cards: 1)
            let writer = SwipeWriter(store: store, changes: store.changes)
            _ = try await writer.submit(
                .swipe(StorageTests.swipe(deck, card: cards[0], participant: "p", id: "good", direction: .upLeft)))
            #expect(try await store.swipe(id: "good")?.direction == .upLeft)
            let row = try await Self.rawRow(store, "swipes", where: "id", is: .text("good"))
            try await Self.insertCopy(
                store, "swipes", of: row,
                with: [
                    "id": .text("odd"), "undoneAt": .double(fixedTime), column: .text(text),
                ])
            await #expect(throws: (any Error).self) { try await store.swipe(id: "odd") }
        }
    }

    @Test("CountedInput.set(stored:) reads what stored(_:) writes and refuses an empty or unknown text")
    func countedInputText() {
        for set in [[.drag], [.button, .api], Set(CountedInput.allCases)] as [Set<CountedInput>] {
            #expect(CountedInput.set(stored: CountedInput.stored(set)) == set)
        }
        #expect(CountedInput.stored([.api, .drag]) == "drag,api")
        for text in ["", ",", "drag,", "drag,,api", "drag,telepathy", "Drag", " drag"] {
            #expect(CountedInput.set(stored: text) == nil, "\(text)")
        }
    }
}
