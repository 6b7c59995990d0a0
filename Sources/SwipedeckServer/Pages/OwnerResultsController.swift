import Foundation
import Hummingbird

/// The owner's side of a deck's results: `/owner/decks/{deck}/results` (the live results page,
/// which is `/d/{deck}/results` seen by its owner) and the Exclude / Include forms on it, for one
/// participant or a whole lockstep cluster.
struct OwnerResultsController: Sendable {
    let store: any Store
    let access: DeckAccess
    /// Owners name participants by pseudonym.
    let names: ParticipantNames
    let clusters: ClusterGuard
    let clock: @Sendable () -> Double

    /// Registers the pages on `pages`, the owner pages' group (`SessionOwnerMiddleware`: signed-in owners only).
    func register(on pages: RouterGroup<AppRequestContext>) {
        pages.get("/owner/decks/:deck/results", use: results)
        pages.post("/owner/decks/:deck/participants/:participant/exclude", use: exclude)
        pages.post("/owner/decks/:deck/participants/:participant/include", use: include)
        pages.post("/owner/decks/:deck/clusters", use: cluster)
    }

    /// A cluster as the results page names it: its network and first join time.
    struct ClusterForm: Decodable {
        var network: String
        var from: String
        /// `include` or `exclude`.
        var action: String
    }

    /// Includes or excludes every member of a lockstep cluster (found anew; one that is gone
    /// changes nothing). An included member is never excluded automatically again.
    @Sendable func cluster(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.checked(ClusterForm.self, request, context)
        guard form.action == "include" || form.action == "exclude" else {
            throw ApiError.invalidField(code: "invalid_action", message: "action must be include or exclude.")
        }
        let now = clock()
        let found = try await clusters.check(deck, now: now, force: true)
        if let c = found.first(where: { $0.network == form.network && String($0.joinedFrom) == form.from }) {
            let exclude = form.action == "exclude"
            for id in c.members {
                try await store.setExcluded(
                    deck: deck, participant: id, exclude,
                    reason: exclude ? "excluded with its lockstep cluster on the results page" : "",
                    by: context.owner?.ownerId, now: now)
            }
        }
        return .redirect(to: "/d/\(deck.slug)/results#clusters", type: .normal)
    }

    @Sendable func results(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        return .redirect(to: "/d/\(deck.slug)/results", type: .normal)
    }

    @Sendable func exclude(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setExcluded(true, request, context)
    }

    @Sendable func include(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setExcluded(false, request, context)
    }

    func setExcluded(_ excluded: Bool, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        _ = try await OwnerForms.checked(OwnerForms.Empty.self, request, context)
        let participant = try await names.stored(try context.parameters.require("participant"), deckId: deck.id)
        try await store.setExcluded(
            deck: deck, participant: participant, excluded, reason: excluded ? "excluded on the results page" : "",
            by: context.owner?.ownerId, now: clock())
        return .redirect(to: "/d/\(deck.slug)/results#flagged", type: .normal)
    }
}
