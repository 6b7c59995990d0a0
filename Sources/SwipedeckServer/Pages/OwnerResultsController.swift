import Foundation
import Hummingbird

/// The owner's side of a deck's results: `/owner/decks/{deck}/results` (the live results page,
/// which is `/d/{deck}/results` seen by its owner) and the Exclude / Include forms on it.
struct OwnerResultsController: Sendable {
    let database: any SwipeStore
    let access: DeckAccess
    /// Owners name participants by pseudonym.
    let names: ParticipantNames
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/owner/decks/:deck/results", use: results)
        router.post("/owner/decks/:deck/participants/:participant/exclude", use: exclude)
        router.post("/owner/decks/:deck/participants/:participant/include", use: include)
    }

    @Sendable func results(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try await context.parameters.require("deck"), context)
        return .redirect(to: "/d/\(deck.slug)/results", type: .normal)
    }

    @Sendable func exclude(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setExcluded(true, request, context)
    }

    @Sendable func include(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setExcluded(false, request, context)
    }

    func setExcluded(_ excluded: Bool, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try await context.parameters.require("deck"), context)
        _ = try await OwnerForms.checked(OwnerForms.Empty.self, request, context)
        let participant = try await names.stored(try context.parameters.require("participant"), deckId: deck.id ?? 0)
        try await database.setExcluded(
            deck: deck, participant: participant, excluded, reason: excluded ? "excluded on the results page" : "",
            by: context.owner?.ownerId, now: clock())
        return .redirect(to: "/d/\(deck.slug)/results#flagged", type: .normal)
    }
}
