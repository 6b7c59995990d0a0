import Foundation
import Hummingbird

/// The big screen: `/d/{deck}/present` (the deck's owner signed in, or whoever holds its presenter
/// link: `PresenterMiddleware`) shows the room how to join — the address to type and the deck's
/// short join code, and a QR code of the deck's link — how many have decided, and the results per
/// card once revealed (hidden by default); the presenter reveals or hides them (at once, or by a
/// timer), locks or unlocks the deck and paces it (`POST /d/{deck}/present`), on the screen or on
/// the remote (`/d/{deck}/present/remote`); every phone on the deck follows (`StageController`).
/// The owner makes and revokes the presenter link on the share panel
/// (`POST /owner/decks/{deck}/presenter-link`; its remote's QR code `…/presenter.svg`).
/// `/j` takes a typed code (`GET /j?code=`) and `/j/{code}` leads to the deck's page. A code that
/// no deck has costs the client's network a failed lookup from the budget room codes draw on
/// (`RoomLookupBudget`): guessing join codes is no cheaper than guessing rooms.
struct PresentController: Sendable {
    let store: any Store
    let catalog: Catalog
    let access: DeckAccess
    let share: ShareController
    let renderer: PageRenderer
    let lookups: RoomLookupBudget
    /// The results streams the screen's chart follows, and their pool (the owners' streams').
    let live: LiveResults
    let streams: StreamLimiter
    /// Derives presenter links' keys (`PresenterLink`).
    let secretKey: SecretKey
    let clock: @Sendable () -> Double

    /// Who may present a deck: in front of its screen's routes, and asked again by its stream.
    var gate: PresenterMiddleware { PresenterMiddleware(access: access, store: store, secretKey: secretKey) }

    /// `/j` on `router`; the big screen, its state, remote, stream and controls behind
    /// `PresenterMiddleware`; the presenter link on `pages` (`SessionOwnerMiddleware`: owners only).
    func register(on router: Router<AppRequestContext>, pages: RouterGroup<AppRequestContext>) {
        router.get("/j", use: findCode)
        router.get("/j/:code", use: follow)
        let screen = router.group("/d/:deck/present").add(middleware: gate)
        screen.get(use: present)
        screen.post(use: control)
        screen.get("state", use: state)
        screen.get("remote", use: remote)
        screen.get("live", use: liveResults)
        pages.post("/owner/decks/:deck/presenter-link", use: presenterLink)
        pages.get("/owner/decks/:deck/presenter.svg", use: presenterCode)
    }

    static let notFoundWords = "No deck has that code. Check it on the screen and type it again."
    static let malformedWords =
        "A code has \(RoomCode.length) letters and digits, without 0, 1, I, L or O. Check it and type it again."

    /// `GET /j`: the field to type a code in; with `?code=` (as typed: any case, spaces and dashes
    /// allowed), on to `/j/{code}`, or the field again with why not.
    @Sendable func findCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A GET form sends a space as `+`: shown back as the person typed it.
        guard let typed = request.uri.queryParameters["code"].map({ $0.replacingOccurrences(of: "+", with: " ") })
        else {
            return try joinPage(typed: "", error: nil, status: .ok)
        }
        guard let code = Self.code(typed) else {
            return try joinPage(typed: typed, error: Self.malformedWords, status: .badRequest)
        }
        return .redirect(to: "/j/\(code)", type: .normal)
    }

    /// `GET /j/{code}`: 303 to the deck of the code (the deck's own access rules then apply), or
    /// the field with the reason (404). Budgeted as room lookups are.
    @Sendable func follow(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A code typed into the address bar: `923%20qww` is `923 qww`.
        let raw = try context.parameters.require("code")
        let typed = raw.removingPercentEncoding ?? raw
        do {
            let presentation = try await lookups.guarded(address: context.remoteAddress, now: clock()) {
                guard let code = Self.code(typed), let found = try await store.presentation(joinCode: code) else {
                    throw ApiError.joinCodeNotFound
                }
                return found
            }
            return .redirect(to: "/d/\(try await store.deckSlug(id: presentation.deckId))", type: .normal)
        } catch ApiError.joinCodeNotFound {
            return try joinPage(typed: typed, error: Self.notFoundWords, status: .notFound)
        } catch ApiError.rateLimited(let wait) {
            // The field again with the wait in words, not the bare refusal: the right code typed on a
            // network that just spent its wrong guesses gets in once the budget refills.
            var response = try joinPage(
                typed: typed,
                error: "Too many wrong codes from your network just now. Wait \(wait) s and press Join again.",
                status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
    }

    /// `typed` as a join code (upper case), or nil when it cannot be one (`RoomCode.typed`).
    static func code(_ typed: String) -> String? {
        RoomCode.typed(typed)
    }

    func joinPage(typed: String, error: String?, status: HTTPResponse.Status) throws -> Response {
        let view: [String: Any] = [
            "kind": "join", "pageTitle": "Join", "typed": typed, "error": error ?? "", "hasError": error != nil,
        ]
        return try renderer.page("join", view, status: status)
    }

    /// The deck's presentation, made with a fresh code the first time.
    func presentation(for deck: Deck) async throws -> Presentation {
        if let found = try await store.presentation(deckId: deck.id) { return found }
        // 31⁶ codes: a draw another deck has is rare; a few draws make it vanishingly so.
        for _ in 0..<8 {
            if let made = try await store.createPresentation(deckId: deck.id, joinCode: RoomCode.random(), now: clock())
            {
                return made
            }
        }
        throw ApiError.internalError
    }

    /// `/d/{deck}/present`: the big screen, for 1920×1080 and 1280×720 (present.css); present.js
    /// keeps the counts and cards live.
    @Sendable func present(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try context.presenting()
        let deck = presenter.deck
        let presentation = try await presentation(for: deck)
        let stage = try await stage(of: deck, presentation)
        let report = try await store.results(for: deck)
        let joinLink = share.absolute("/j/\(presentation.joinCode)", context)
        let stats = PresentView.presentedStats(report, revealed: stage.revealed)
        // The QR code is the deck's own link, as its share panel's: a camera never spends the lookup
        // budget a hall's typed codes share. Too long a host for a QR code: the address and code alone.
        let deckLink = share.deckLink(deck.slug, context)
        let reach = LinkReach(link: deckLink)
        let qr = (try? QRCode(encoding: deckLink))?.svg(title: "QR code for \(deckLink)") ?? ""
        let address = share.absolute("/j", context).replacingOccurrences(of: "https://", with: "")
            .replacingOccurrences(of: "http://", with: "")
        let cards = PresentView.presentedCards(report, revealed: stage.revealed).map { c -> [String: Any] in
            [
                "id": c.id, "title": c.title, "votes": c.votes, "share": c.share, "width": c.width, "state": c.state,
                "verdict": c.verdict, "current": c.id == presentation.pacing.cardId,
            ]
        }
        var view: [String: Any] = [
            "kind": "present", "pageTitle": "\(deck.title) · on the big screen", "slug": deck.slug,
            "currentCard": presentation.pacing.cardId.map(String.init) ?? "",
            "title": deck.title, "code": presentation.joinCode, "address": address, "link": joinLink, "qr": qr,
            "hasQR": !qr.isEmpty, "people": stats.people, "decisions": stats.decisions, "decision": stats.decision,
            "hasDecision": !stats.decision.isEmpty, "cards": cards, "rightLabel": deck.rightLabel,
            "deckDecided": report.decision?.deckDecided == true, "codesDeck": deck.access == .codes,
            "noCards": cards.isEmpty, "resultsPublic": deck.resultsPublic,
            "density": PresentView.density(cards: cards.count),
        ]
        view.merge(try await pacedView(stage, presentation, presenter, context)) { _, controls in controls }
        // The share panel's warning: phones cannot open a link to this computer itself.
        if reach == .thisComputer { view["thisComputer"] = URL(string: deckLink)?.host ?? deckLink }
        var response = try renderer.page("present", view)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `/d/{deck}/present/remote`: the big screen's controls on the presenter's phone, usable with
    /// one thumb while the projector shows the screen; served again when the stage changes.
    @Sendable func remote(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try context.presenting()
        let deck = presenter.deck
        let presentation = try await presentation(for: deck)
        let stage = try await stage(of: deck, presentation)
        var view: [String: Any] = [
            "kind": "remote", "pageTitle": "Remote · \(deck.title)", "slug": deck.slug, "title": deck.title,
            "code": presentation.joinCode, "remote": true,
        ]
        view.merge(try await pacedView(stage, presentation, presenter, context)) { _, controls in controls }
        var response = try renderer.page("present-remote", view)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The deck's stage as its big screen shows it, at the clock's time.
    func stage(of deck: Deck, _ presentation: Presentation?) async throws -> DeckStage {
        let steps = presentation?.pacing.hosted == true ? try await catalog.cardCount(deck.slug) : 0
        return DeckStage.of(open: deck.isOpen, presentation: presentation, steps: steps, now: clock())
    }

    /// `controlsView` with the presenter's card in words (host-paced).
    func pacedView(
        _ stage: DeckStage, _ presentation: Presentation, _ presenter: Presenter, _ context: AppRequestContext
    ) async throws -> [String: Any] {
        var view = Self.controlsView(stage, presentation.pacing, csrf: presenter.csrf(context))
        // The owner's own pages are the owner's: a presenter link leads to the screen and the remote only.
        view["byOwner"] = presenter.linkKey == nil
        var title: String?
        if let id = presentation.pacing.cardId { title = try await store.card(id: id)?.title }
        view["nowWords"] = stage.presenterWords(cardTitle: title)
        return view
    }

    /// What the controls (present-controls.mustache) and present.js read, alike on the big screen and
    /// the remote: the stage, the pace, the form's token (`Presenter.csrf`), the timers, how often to ask.
    static func controlsView(_ stage: DeckStage, _ pacing: Pacing, csrf: String) -> [String: Any] {
        [
            "revealed": stage.revealed, "open": stage.open, "revealIn": stage.revealIn.map(String.init) ?? "",
            "timing": stage.revealIn != nil, "csrf": csrf, "pollMs": pollSeconds * 1000,
            "timers": Presentation.revealTimers.map { ["seconds": $0, "words": timerWords($0)] },
            "paced": stage.paced, "started": stage.step > 0, "pace": stage.paceKey,
            "cardClosesIn": stage.cardClosesIn.map(String.init) ?? "", "cardTiming": stage.cardClosesIn != nil,
            "cardTimers": [["seconds": 0, "words": "no timer", "chosen": pacing.cardSeconds == nil]]
                + Pacing.cardTimers.map {
                    ["seconds": $0, "words": timerWords($0), "chosen": pacing.cardSeconds == $0] as [String: Any]
                },
        ]
    }

    /// How often a big screen asks for the deck's stage, seconds (present.js reads it from the page).
    static let pollSeconds = 2

    /// A reveal timer as the presenter picks it: "15 s", "1 min", "2 min".
    static func timerWords(_ seconds: Int) -> String {
        seconds < 60 ? "\(seconds) s" : "\(seconds / 60) min"
    }

    /// What a big screen shows of the deck's state (`DeckStage`): whether it takes votes, whether
    /// the results show, and a reveal timer's seconds left. present.js asks every `pollSeconds`
    /// and is served again when it changed (pressed in another window, the deck's settings, its
    /// rule closing it, a timer running out).
    @Sendable func state(_ request: Request, context: AppRequestContext) async throws -> DeckStage {
        let deck = try context.presenting().deck
        return try await stage(of: deck, try await store.presentation(deckId: deck.id))
    }

    /// `/d/{deck}/present/live`: the deck's results stream (`LiveResults`) for the screen's chart,
    /// whether or not its results are public; each event is sent only while the presenter still
    /// may present (the owner's session live and the deck theirs, or the link not revoked).
    @Sendable func liveResults(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try context.presenting()
        let deck = presenter.deck
        let logger = context.logger
        let stillAllowed: @Sendable () async -> Bool
        if let key = presenter.linkKey {
            let gate = gate
            stillAllowed = { await gate.stillOpens(key, deck, logger: logger) }
        } else {
            let (access, clock, identity) = (access, clock, context.owner)
            stillAllowed = {
                await access.stillReadsResults(
                    slug: deck.slug, identity: identity, bearerHash: nil, now: clock(), logger: logger)
            }
        }
        // The managers' pool (`ResultsController.liveResults`): one link holds at most a client's share.
        let holder = presenter.linkKey == nil ? context.owner?.streamHolder : "presenter:\(deck.id)"
        return try live.response(
            deck: deck, streams: streams, client: context.remoteAddress, holder: holder, stillAllowed: stillAllowed)
    }

    /// The presenter's controls: `action` is `reveal` or `hide` (the results on the screen, at
    /// once), `timer` (the results show in `seconds`, one of `Presentation.revealTimers`), `lock`
    /// or `unlock` (the deck: a locked deck takes no decision, as one closed in its settings),
    /// `hostPaced` or `selfPaced` (the pace, `Pacing`; host-paced starts before the first card),
    /// `next` (host-paced: the next card in the deck's listed order, on every phone), or
    /// `cardTimer` (each card's time, `cardSeconds`: 0 for none or one of `Pacing.cardTimers`;
    /// the card shown now gets it from now).
    struct ControlForm: Decodable {
        var action: String
        var seconds: Int?
        var cardSeconds: Int?
        /// `remote`: the press came from the phone remote, which is served again.
        var back: String?
    }

    @Sendable func control(_ request: Request, context: AppRequestContext) async throws -> Response {
        let presenter = try context.presenting()
        let deck = presenter.deck
        let form = try await OwnerForms.checked(ControlForm.self, request, token: presenter.csrf(context))
        let now = clock()
        switch form.action {
        case "reveal", "hide":
            _ = try await presentation(for: deck)
            _ = try await store.setRevealed(deckId: deck.id, form.action == "reveal", revealAt: nil, now: now)
        case "timer":
            guard let seconds = form.seconds, Presentation.revealTimers.contains(seconds) else {
                throw ApiError.invalidField(
                    code: "invalid_timer",
                    message:
                        "seconds must be one of \(Presentation.revealTimers.map(String.init).joined(separator: ", ")).")
            }
            _ = try await presentation(for: deck)
            _ = try await store.setRevealed(deckId: deck.id, false, revealAt: now + Double(seconds), now: now)
        case "lock", "unlock":
            var patch = DeckPatch()
            patch.open = form.action == "unlock"
            // A press on a presenter link is nobody's of the owners: the deck's history says so.
            let by = presenter.linkKey == nil ? context.owner?.ownerId : nil
            let suffix = by == nil ? " (on the presenter link)" : ""
            _ = try await store.updateDeck(
                id: deck.id, patch, by: by, detail: { OwnerDecksController.describe($0) + suffix }, now: now)
        case "hostPaced", "selfPaced":
            let kept = try await presentation(for: deck).pacing.cardSeconds
            let pacing = Pacing(hosted: form.action == "hostPaced", cardSeconds: kept)
            _ = try await store.setPacing(deckId: deck.id, pacing, now: now)
        case "next":
            let pacing = try await presentation(for: deck).pacing
            guard pacing.hosted else {
                throw ApiError.invalidField(
                    code: "not_host_paced", message: "The deck is self-paced: pace the room card by card first.")
            }
            let listed = try await store.allCards(deckId: deck.id).filter { $0.archivedAt == nil }.map(\.id)
            _ = try await store.setPacing(deckId: deck.id, pacing.next(in: listed, now: now), now: now)
        case "cardTimer":
            guard let seconds = form.cardSeconds, seconds == 0 || Pacing.cardTimers.contains(seconds) else {
                throw ApiError.invalidField(
                    code: "invalid_card_timer",
                    message:
                        "cardSeconds must be 0 or one of \(Pacing.cardTimers.map(String.init).joined(separator: ", "))."
                )
            }
            var pacing = try await presentation(for: deck).pacing
            pacing.cardSeconds = seconds == 0 ? nil : seconds
            if pacing.isCardOpen(at: now) { pacing.closesAt = pacing.cardSeconds.map { now + Double($0) } }
            _ = try await store.setPacing(deckId: deck.id, pacing, now: now)
        default:
            throw ApiError.invalidField(
                code: "invalid_action",
                message: "action must be reveal, hide, timer, lock, unlock, hostPaced, selfPaced, next or cardTimer.")
        }
        return .redirect(to: "/d/\(deck.slug)/present\(form.back == "remote" ? "/remote" : "")", type: .normal)
    }

    /// `POST /owner/decks/{deck}/presenter-link`: `action` `make` gives the deck a new presenter
    /// link (one made before stops working), `revoke` stops the working one; back to the share
    /// panel, which shows the link and its remote's QR code.
    struct LinkForm: Decodable { var action: String }

    @Sendable func presenterLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.checked(LinkForm.self, request, context)
        let link = try await presentation(for: deck).presenterLink
        switch form.action {
        case "make": _ = try await store.setPresenterLink(deckId: deck.id, link.made(), now: clock())
        case "revoke": _ = try await store.setPresenterLink(deckId: deck.id, link.revoked(), now: clock())
        default:
            throw ApiError.invalidField(code: "invalid_action", message: "action must be make or revoke.")
        }
        return .redirect(to: "/owner/decks/\(deck.slug)/share#presenter", type: .normal)
    }

    /// `GET /owner/decks/{deck}/presenter.svg`: the QR code of the presenter link's remote, for the
    /// presenter's phone (404 without a working link).
    @Sendable func presenterCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        guard
            let link = share.presenterURL(
                deck, try await store.presentation(deckId: deck.id), page: "present/remote", context)
        else { throw ApiError.notFound("presenter link") }
        var response = try share.qrResponse(link)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
