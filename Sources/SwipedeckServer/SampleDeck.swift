import Foundation

/// The bundled sample deck (`Sources/SwipedeckServer/Resources/sample-deck.json`).
public enum SampleDeck {
    public static func load(resourceRoot: String) throws -> DeckInput {
        let url = URL(fileURLWithPath: resourceRoot).appendingPathComponent(
            "Sources/SwipedeckServer/Resources/sample-deck.json")
        let data = try Data(contentsOf: url)
        let raw = try JSONDecoder().decode(SampleFile.self, from: data)
        return DeckInput(
            slug: raw.slug, title: raw.title, description: raw.description, profile: raw.profile,
            allowButtons: raw.allowButtons, labels: raw.labels, cards: raw.cards)
    }

    struct SampleFile: Decodable {
        var slug: String
        var title: String
        var description: String?
        var profile: String?
        var allowButtons: Bool?
        var labels: DeckInput.Labels?
        var cards: [DeckInput.CardInput]
    }
}
