import Foundation
import SwipePhysics

/// A change to a deck's fields and settings (`PATCH /api/v1/decks/{deck}`, the owner's settings
/// form). Absent fields stay as they are; `quota: null` removes the quota.
public struct DeckPatch: Sendable, Decodable {
    public var title: String?
    public var description: String?
    public var profile: String?
    public var allowButtons: Bool?
    public var labels: DeckInput.Labels?
    /// Whether swipes are accepted.
    public var open: Bool?
    public var resultsPublic: Bool?
    /// Present and nil: no quota; absent: unchanged.
    public var quota: Int??
    /// `listed` or `shuffled`.
    public var order: String?
    /// Input kinds the ranking counts: a non-empty list of `drag`, `button`, `api`.
    public var countedInputs: [String]?
    /// Who may vote: a `DeckAccessMode` raw value.
    public var access: String?
    /// Present and nil: the server's join budget; absent: unchanged.
    public var joinLimit: Int??
    /// Whether `/` lists the deck (`Deck.listed`).
    public var listed: Bool?
    /// Whether groups may decide together in rooms (`Deck.rooms`).
    public var rooms: Bool?
    /// Most people of one network a deck's owner may let join at once. Default 10,000: a stadium
    /// behind one carrier NAT; the limit still bounds a script to that many identities per network.
    public static let maxJoinLimit = 10_000

    public init() {}

    enum CodingKeys: String, CodingKey {
        case title, description, profile, allowButtons, labels, open, resultsPublic, quota, order, countedInputs,
            access, joinLimit, listed, rooms
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        profile = try c.decodeIfPresent(String.self, forKey: .profile)
        allowButtons = try c.decodeIfPresent(Bool.self, forKey: .allowButtons)
        labels = try c.decodeIfPresent(DeckInput.Labels.self, forKey: .labels)
        open = try c.decodeIfPresent(Bool.self, forKey: .open)
        resultsPublic = try c.decodeIfPresent(Bool.self, forKey: .resultsPublic)
        if c.contains(.quota) { quota = .some(try c.decodeIfPresent(Int.self, forKey: .quota)) }
        order = try c.decodeIfPresent(String.self, forKey: .order)
        countedInputs = try c.decodeIfPresent([String].self, forKey: .countedInputs)
        if c.contains(.access) { access = try c.decode(String.self, forKey: .access) }  // null is no mode: malformed
        if c.contains(.joinLimit) { joinLimit = .some(try c.decodeIfPresent(Int.self, forKey: .joinLimit)) }
        listed = try c.decodeIfPresent(Bool.self, forKey: .listed)
        rooms = try c.decodeIfPresent(Bool.self, forKey: .rooms)
    }

    /// `deck` with the patch applied, if every rule holds.
    /// - Throws: `ApiError.invalidField` naming the rule (`invalid_title`, `invalid_description`,
    ///   `unknown_profile`, `invalid_label`, `invalid_quota`, `invalid_order`, `invalid_counted_inputs`,
    ///   `invalid_access`, `invalid_join_limit`). A deck that needs an access secret and has none
    ///   (made before access modes) gets one.
    public func applied(to deck: Deck) throws(ApiError) -> Deck {
        Deck(id: deck.id, try applied(to: deck.content))
    }

    /// `deck`'s content with the patch applied, by the rules of `applied(to:)` above.
    public func applied(to deck: NewDeck) throws(ApiError) -> NewDeck {
        func fail(_ code: String, _ message: String) -> ApiError { .invalidField(code: code, message: message) }
        var d = deck
        if let title {
            if !DeckInput.isText(title, max: Deck.maxTitleLength, required: true) {
                throw fail("invalid_title", "title must be 1–\(Deck.maxTitleLength) characters.")
            }
            d.title = title
        }
        if let description = description.map(DeckInput.lines) {
            if !DeckInput.isText(description, max: Deck.maxDescriptionLength, required: false) {
                throw fail("invalid_description", "description must be at most 2,000 characters.")
            }
            d.description = description
        }
        if let profile {
            if SwipeProfile.named(profile) == nil {
                throw fail(
                    "unknown_profile",
                    "profile must be one of: \(SwipeProfile.all.map(\.name).joined(separator: ", ")).")
            }
            d.profile = profile
        }
        if let allowButtons { d.allowButtons = allowButtons }
        for l in [labels?.left, labels?.right, labels?.up, labels?.down] {
            if let l, !DeckInput.isText(l, max: Deck.maxLabelLength, required: true) {
                throw fail("invalid_label", "labels must be 1–\(Deck.maxLabelLength) characters.")
            }
        }
        d.leftLabel = labels?.left ?? d.leftLabel
        d.rightLabel = labels?.right ?? d.rightLabel
        d.upLabel = labels?.up ?? d.upLabel
        d.downLabel = labels?.down ?? d.downLabel
        if let open { d.isOpen = open }
        if let resultsPublic { d.resultsPublic = resultsPublic }
        if let quota {
            if let q = quota, !(1...DeckInput.maxCards).contains(q) {
                throw fail(
                    "invalid_quota",
                    "quota must be a whole number of cards from 1 to \(DeckInput.maxCards), or null for no limit.")
            }
            d.quota = quota
        }
        if let order {
            guard let order = CardOrder(rawValue: order) else {
                throw fail("invalid_order", "order must be \"listed\" or \"shuffled\".")
            }
            d.cardOrder = order
        }
        if let countedInputs {
            let kinds = countedInputs.compactMap(CountedInput.init(rawValue:))
            if kinds.isEmpty || kinds.count != countedInputs.count {
                throw fail(
                    "invalid_counted_inputs",
                    "countedInputs must list one or more of: drag, button, api (suspect swipes never count).")
            }
            d.countedInputs = Set(kinds)
        }
        if let access {
            guard let mode = DeckAccessMode(rawValue: access) else {
                throw fail(
                    "invalid_access",
                    "access must be one of: \(DeckAccessMode.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            d.access = mode
        }
        if d.access != .link && d.accessSecret.isEmpty { d.accessSecret = Secret.token() }
        if let joinLimit {
            if let n = joinLimit, !(1...Self.maxJoinLimit).contains(n) {
                throw fail(
                    "invalid_join_limit",
                    "joinLimit must be a whole number of people from 1 to \(Self.maxJoinLimit), or null for the server's budget."
                )
            }
            d.joinLimit = joinLimit
        }
        if let listed { d.listed = listed }
        if let rooms { d.rooms = rooms }
        return d
    }
}
