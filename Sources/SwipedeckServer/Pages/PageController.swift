import Foundation
import Hummingbird
import SwipePhysics

/// HTML pages and their no-JavaScript form posts.
struct PageController: Sendable {
    let store: any Store
    let catalog: Catalog
    let swipes: SwipeService
    let access: DeckAccess
    let renderer: PageRenderer
    /// Lockstep clusters leave the ranking before it is read.
    let clusters: ClusterGuard
    let admissions: Admissions
    /// Deals known-answer cards at the deck's share.
    let knownAnswers: KnownAnswers
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/", use: index)
        router.get("/d/:deck", use: deckPage)
        router.post("/d/:deck/swipe", use: formSwipe)
        router.post("/d/:deck/undo", use: formUndo)
        router.get("/d/:deck/results", use: resultsPage)
        router.get("/d/:deck/history", use: historyPage)
        router.post("/d/:deck/swipes/:id/undo", use: formUndoOne)
        router.post("/d/:deck/swipes/:id/flip", use: formFlip)
        router.get("/d/:deck/cards/:card", use: detailPage)
    }

    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let decks = try await store.decks().filter(\.isOnFrontPage).map { s -> [String: Any] in
            [
                "slug": s.deck.slug, "title": s.deck.title, "description": s.deck.description,
                "cards": s.cardCount == 1 ? "1 card" : "\(s.cardCount) cards",
                "cover": renderer.assets.url(for: s.cover), "hasCover": !s.cover.isEmpty,
            ]
        }
        return try renderer.page(
            "index", ["kind": "index", "pageTitle": "Decks", "decks": decks, "hasDecks": !decks.isEmpty])
    }

    @Sendable func deckPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        if deck.access != .link, let gate = try await admission(request, context, deck) { return gate }
        if deck.access == .link, deck.joinLimit != nil, let pass = try await eventAdmission(context, deck) {
            // Past the network's budget, an event deck admits on its own: this page again, with the cookie.
            var response = try await deckPage(request, context: pass.context)
            response.setCookie(pass.cookie)
            return response
        }
        let profile = deck.swipeProfile
        let participant = swipes.cookieIdentity(context.cookies, deck: deck)
        // A deck on a big screen: the page follows its stage (StageController) and says once its
        // results show (a reveal timer's countdown is the stream's to tell: it changes every second).
        let presentation = try await store.presentation(deckId: deck.id)
        let pacing = presentation?.pacing ?? .off
        let now = clock()
        let dealt = try await Dealer(store: store).page(
            deck: deck, participant: participant, after: -1, limit: profile.stack.visible + Self.bufferedCards,
            pacing: pacing, now: now)
        let remaining = dealt.remaining
        // Host-paced, the presenter's card is the whole deal: no known-answer card joins it.
        let cards =
            pacing.hosted
            ? dealt.cards : try await knownAnswers.dealt(dealt.cards, deck: deck, participant: participant)
        let cardCount = try await catalog.cardCount(deck.slug)
        let showResults = access.canReadResults(deck, context)
        // No credential for this deck and none could be minted: the page waits for one.
        let joinWait = participant == nil ? context.joinWait : nil
        // The page is a function of the deck's revision, the cards shown, the counts left and
        // retired, whether the viewer may see results and whether only this computer opens a room's
        // link (all in the key), so its HTML is rendered once per combination. Any change to the
        // deck or its cards bumps the revision. A room's link is this page's own address: the Share
        // panel's warning when only this computer opens it.
        let revealed = presentation?.isRevealed(at: now) == true
        let stage = DeckStage.of(open: deck.isOpen, presentation: presentation, steps: cardCount, now: now)
        let host = context.host.flatMap { URL(string: "http://\($0)")?.host } ?? ""
        let thisComputer = deck.rooms && LinkReach(link: "http://" + (context.host ?? "")) == .thisComputer ? host : nil
        let key =
            "deck|\(deck.id)|\(deck.revision)|\(showResults)|\(remaining)|\(dealt.retired)|\(joinWait ?? -1)|"
            + "\(thisComputer ?? "")|\(presentation != nil)|\(revealed)|\(stage.waitingWords)|"
            + cards.map { String($0.id) }.joined(separator: ",")
        let pageContext: () -> [String: Any] = {
            var ctx = stackContext(
                deck, cards: cards, remaining: remaining, cardCount: cardCount, participant: participant,
                showResults: showResults, joinWait: joinWait, retired: dealt.retired, paced: pacing.hosted)
            ctx["waitingWords"] = stage.waitingWords
            ctx["paced"] = pacing.hosted
            // The cursor is the dealt page's last card in the deck's order; known-answer cards
            // brought forward from later in the deck must not move it past the cards between.
            ctx["cursor"] = dealt.cards.last.map { deck.cardOrder.sortKey($0, participant: participant) } ?? -1
            ctx["rooms"] = deck.rooms
            ctx["roomsOrRoom"] = deck.rooms
            ctx["thisComputer"] = thisComputer
            if presentation != nil {
                ctx["stage"] = "/d/\(deck.slug)/stage"
                ctx["stageRetry"] = StreamLimiter.retryAfterSeconds
                ctx["stageWords"] =
                    revealed ? DeckStage(open: deck.isOpen, revealed: true, revealIn: nil).bannerWords : ""
                ctx["stageRevealed"] = revealed
            }
            return ctx
        }
        var response: Response
        if joinWait != nil, deck.isOpen {
            // Past the free budget, with scripts the device pays a puzzle instead of the wait: each
            // page carries its own, so this one is rendered for this request.
            let puzzle = try await admissions.puzzles.issue(deck: deck, address: context.remoteAddress, now: clock())
            var ctx = pageContext()
            ctx["puzzleJSON"] = PageRenderer.scriptSafeJSON(puzzle)
            response = try renderer.page("deck", ctx)
        } else {
            response = try renderer.cachedPage("deck", key: key, pageContext)
        }
        if let joinWait { response.headers[.retryAfter] = String(joinWait) }
        return response
    }

    /// The deck page's context for `cards` (the top of the participant's deal) with `remaining` cards
    /// left of `cardCount`: the stack, its state panels and the controls. The deck page and a room's
    /// page (which adds the room) render it alike. `retired`: the participant's undecided cards the
    /// stop rule took out of dealing (`Dealer.Page.retired`): neither left nor decided by them.
    /// `paced`: a host-paced deck (`Pacing`), whose deal is the presenter's card.
    func stackContext(
        _ deck: Deck, cards: [Card], remaining: Int, cardCount: Int, participant: String?,
        showResults: Bool, joinWait: Int?, retired: Int = 0, paced: Bool = false
    ) -> [String: Any] {
        let profile = deck.swipeProfile
        let order = deck.cardOrder
        let cardViews = cards.enumerated().map { i, c in cardView(c, deck: deck, depth: i) }
        let dirs = Set(profile.directions)
        var ctx = deckContext(deck)
        ctx["kind"] = "deck"
        ctx["pageTitle"] = deck.title
        ctx["cards"] = cardViews
        // The empty card deck.js fills from each fetched card's own JSON.
        ctx["cardTemplate"] =
            [
                "id": "", "title": "", "subtitle": "", "depth": "", "under": false, "detail": "", "accent": "",
                "hasImage": false,
            ] as [String: Any]
        ctx["topCard"] = cards.first.map { String($0.id) } ?? ""
        let state = StackState.of(
            deck, activeCards: cardCount, remaining: remaining, joining: joinWait != nil, paced: paced, retired: retired
        )
        ctx["isJoining"] = state == .joining
        ctx["joinWait"] = joinWait.map(String.init) ?? ""
        ctx["state"] = state.rawValue
        ctx["blocked"] = state != .open
        // A closed deck refuses undos too (409 deck_closed); a deck without cards has none to undo.
        ctx["undoBlocked"] = state == .closed || state == .noCards
        ctx["isNoCards"] = state == .noCards
        ctx["isClosed"] = state == .closed
        ctx["isFinished"] = state == .finished
        ctx["isLimitReached"] = state == .limitReached
        ctx["isWaiting"] = state == .waiting
        ctx["quota"] = deck.quota.map(String.init) ?? ""
        ctx["hasQuota"] = deck.quota != nil
        ctx["quotaCards"] = deck.quota.map { $0 == 1 ? "1 card" : "\($0) cards" } ?? ""
        let decided = cardCount - remaining - retired
        ctx["decided"] = decided
        // Nothing left because the deck is decided, not because this person decided everything.
        ctx["isDeckDecided"] = remaining == 0 && retired > 0 && !paced
        ctx["hasDescription"] = !deck.description.isEmpty
        ctx["remaining"] = remaining
        ctx["left"] = StackState.cardsLeft(remaining: remaining, decided: decided, quota: deck.quota)
        // This participant has a live swipe to undo.
        ctx["canUndo"] = decided > 0
        ctx["cursor"] = cards.last.map { order.sortKey($0, participant: participant) } ?? -1
        ctx["showResults"] = showResults
        ctx["profileJSON"] = PageRenderer.scriptSafeJSON(profile)
        ctx["stackStylesheet"] = renderer.assets.url(for: StackStylesheet.path(for: profile))
        ctx["allowButtons"] = deck.allowButtons
        ctx["showUp"] = deck.allowButtons && dirs.contains(.up)
        ctx["showDown"] = deck.allowButtons && dirs.contains(.down)
        // The hint's sentence ends with the last label it names: one that ends a sentence itself
        // ("Yum!") takes no period after it.
        let lastLabel =
            ctx["showDown"] as? Bool == true
            ? deck.downLabel : ctx["showUp"] as? Bool == true ? deck.upLabel : deck.rightLabel
        ctx["hintStop"] = lastLabel.last.map { ".!?…".contains($0) } == true ? "" : "."
        return ctx
    }

    /// Cards rendered beyond the visible stack, so quick swipes never outrun the next fetch.
    static let bufferedCards = 5

    func deckContext(_ deck: Deck) -> [String: Any] {
        [
            "slug": deck.slug, "title": deck.title, "description": deck.description,
            "leftLabel": deck.leftLabel, "rightLabel": deck.rightLabel, "upLabel": deck.upLabel,
            "downLabel": deck.downLabel,
        ]
    }

    func cardView(_ c: Card, deck: Deck, depth: Int) -> [String: Any] {
        [
            "id": String(c.id), "title": c.title, "subtitle": c.subtitle, "image": renderer.assets.url(for: c.image),
            "hasImage": !c.image.isEmpty, "depth": String(depth),
            // Cards under the top one take no focus or clicks (their links would open a card not on top).
            "under": depth > 0,
            // Cards below the visible stack are not seen until a few swipes later: their images wait.
            "lazy": depth > deck.swipeProfile.stack.visible,
            "detail": "/d/\(deck.slug)/cards/\(c.id)", "accent": c.accent,
        ]
    }

    struct FormSwipe: Decodable {
        var card: Int64
        var direction: String
    }

    @Sendable func formSwipe(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let body = try await request.body.collect(upTo: 16 * 1024)
        let form: FormSwipe
        do {
            form = try URLEncodedFormDecoder().decode(FormSwipe.self, from: String(buffer: body))
        } catch {
            throw ApiError.invalidField(code: "invalid_form", message: "The form needs a card and a direction.")
        }
        let req = SwipeRequest(card: form.card, direction: form.direction, input: SwipeInput.button.rawValue)
        do {
            _ = try await swipes.submit(
                deck: slug, req, key: nil, fingerprint: UUID().uuidString, cookies: context.cookies,
                network: context.network, now: clock())
        } catch ApiError.alreadySwiped {
            // A double submit of the same form: the first one counted; just show the next card.
        } catch let error as ApiError where error.code == "participant_required" {
            // No credential yet (the join budget is spent): the deck's page says so in plain words
            // and lets the person in by itself; never the API's message.
        }
        return .redirect(to: "/d/\(slug)", type: .normal)
    }

    @Sendable func formUndo(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        if context.cookies.credential(for: try await catalog.deck(slug).id) != nil {
            _ = try await swipes.undoLatest(deck: slug, cookies: context.cookies, now: clock())
        }
        return .redirect(to: "/d/\(slug)", type: .normal)
    }

    @Sendable func formUndoOne(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (slug, s) = try await swipeInDeck(context)
        _ = try await swipes.undo(id: s.id, named: nil, cookies: context.cookies, now: clock())
        return .redirect(to: "/d/\(slug)/history", type: .normal)
    }

    /// The `:deck` slug and the `:id` swipe, which must belong to that deck (404 otherwise).
    func swipeInDeck(_ context: AppRequestContext) async throws -> (String, Swipe) {
        let slug = try context.parameters.require("deck")
        let deck = try await catalog.deck(slug)
        guard let s = try await store.swipe(id: try context.parameters.require("id")), s.deckId == deck.id else {
            throw ApiError.notFound("swipe")
        }
        return (slug, s)
    }

    @Sendable func formFlip(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (slug, s) = try await swipeInDeck(context)
        let current = s.direction
        let to = current.mirroredHorizontally == .none ? current : current.mirroredHorizontally
        _ = try await swipes.flip(
            id: s.id, to: to, named: nil, cookies: context.cookies, network: context.network, now: clock())
        return .redirect(to: "/d/\(slug)/history", type: .normal)
    }

    /// On a deck that takes invited people only: admits a visitor whose link carries the proof
    /// (`?k=`, `?code=`, `?pid=&sig=`) with a cookie for this deck and sends them to the clean
    /// URL (the proof leaves the address bar and the history), or shows the invitation page — with
    /// a code field for a `codes` deck. Nil when the visitor was admitted before.
    func admission(_ request: Request, _ context: AppRequestContext, _ deck: Deck) async throws -> Response? {
        let q = request.uri.queryParameters
        let proof = Admissions.Proof(
            key: q["k"].map(String.init), code: q["code"].map(String.init), pid: q["pid"].map(String.init),
            sig: q["sig"].map(String.init))
        let deckId = deck.id
        if proof.isEmpty {
            if let held = context.deckCredentials[deckId], case .deck(_, deck.access.admission) = held.scope {
                return nil
            }
            return try invitation(deck, error: nil, status: .ok)
        }
        let token: String
        do {
            token = try await admissions.join(deck, proof, address: context.remoteAddress, now: clock()).token
        } catch ApiError.joinBudgetSpent(let wait) {
            var r = try invitation(
                deck, error: "Many people joined from your network just now. Try again in \(wait) s.",
                status: .tooManyRequests)
            r.headers[.retryAfter] = String(wait)
            return r
        } catch ApiError.accessRequired {
            let why =
                deck.access == .codes
                ? "That code is not one of this deck's. Check it (letters and digits, no 0, 1, I, L or O) and try again."
                : "This link does not let anyone in: it may be cut short or old. Ask the person who shared it for the link again."
            return try invitation(deck, error: why, typed: proof.code ?? "", status: .forbidden)
        }
        var response = Response.redirect(to: "/d/\(deck.slug)", type: .normal)
        response.setCookie(ParticipantCookies.deckCookie(deckId, token))
        return response
    }

    /// A visitor of an open deck whose owner raised its join limit, who holds no credential (the
    /// network's budget is spent): a credential for this deck alone, from the deck's own budget.
    /// Nil when they hold one, or the deck's budget is spent too.
    func eventAdmission(_ context: AppRequestContext, _ deck: Deck) async throws -> (
        context: AppRequestContext, cookie: Cookie
    )? {
        let deckId = deck.id
        guard context.cookies.credential(for: deckId) == nil else { return nil }
        let joined: (token: String, credential: ParticipantCredential)
        do {
            joined = try await admissions.join(deck, Admissions.Proof(), address: context.remoteAddress, now: clock())
        } catch ApiError.joinBudgetSpent {
            return nil
        }
        var admitted = context
        admitted.deckCredentials[deckId] = joined.credential
        return (admitted, ParticipantCookies.deckCookie(deckId, joined.token))
    }

    /// The page a visitor of an invitation-only deck sees before they are admitted.
    func invitation(_ deck: Deck, error: String?, typed: String = "", status: HTTPResponse.Status) throws -> Response {
        var ctx = deckContext(deck)
        ctx["kind"] = "invite"
        ctx["pageTitle"] = deck.title
        ctx["askCode"] = deck.access == .codes
        ctx["error"] = error ?? ""
        ctx["hasError"] = error != nil
        ctx["typed"] = typed
        return try renderer.page("invite", ctx, status: status)
    }

    /// Flagged participants per page of the owner's results page. Default 50.
    static let flaggedPageSize = 50

    @Sendable func resultsPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let deck: Deck
        do {
            deck = try await access.results(slug, context)
        } catch ApiError.unauthorized {
            return .redirect(to: "/owner/sign-in?next=/d/\(slug)/results", type: .normal)
        }
        let found = try await clusters.check(deck, now: clock(), force: context.owner?.manages(deck) == true)
        let report = try await store.resultsWithRooms(for: deck)
        var ctx = deckContext(deck)
        let page = request.uri.queryParameters.get("page", as: Int.self) ?? 1
        ctx.merge(ResultsView.context(report, deck: deck, page: page)) { _, new in new }
        ctx["kind"] = "results"
        // The owner's view: live updates, and the participants worth a look with Exclude/Include.
        if case .owner(_, let name, _?) = context.owner, context.owner?.manages(deck) == true {
            // Every flagged person is on some page of the list: pages of `flaggedPageSize`.
            let total = try await store.flaggedParticipantCount(deckId: deck.id)
            let pages = max(1, (total + Self.flaggedPageSize - 1) / Self.flaggedPageSize)
            let peoplePage = min(max(request.uri.queryParameters.get("people", as: Int.self) ?? 1, 1), pages)
            let flagged = try await store.flaggedParticipants(
                deckId: deck.id, limit: Self.flaggedPageSize, offset: (peoplePage - 1) * Self.flaggedPageSize)
            // The owner's name (a non-empty string: the template's owner sections and its owner navigation).
            ctx["owner"] = name
            ctx["csrf"] = OwnerForms.csrfToken(context)
            var rows: [[String: Any]] = []
            for f in flagged {
                // Every reason with its count, and the owner's own reason for an exclusion.
                let report = try await store.participantReport(deck: deck, participant: f.id)
                var reasons = report.suspectReasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                    "\($0.key) ×\($0.value)"
                }
                if let why = report.exclusionReason, !why.isEmpty { reasons.append("excluded: \(why)") }
                let shown = swipes.signer.pseudonym(of: f.id, deckId: deck.id)
                rows.append([
                    "id": shown, "short": String(shown.prefix(14)) + "…", "suspect": f.suspect, "live": f.live,
                    "reason": reasons.joined(separator: ", "), "excluded": f.excluded,
                ])
            }
            ctx["flagged"] = rows
            ctx["hasFlagged"] = !flagged.isEmpty
            ctx["flaggedTotal"] = total
            ctx["flaggedShowing"] =
                "\((peoplePage - 1) * Self.flaggedPageSize + 1)–\((peoplePage - 1) * Self.flaggedPageSize + flagged.count) of \(total)"
            ctx["flaggedPaged"] = pages > 1
            ctx["flaggedPrev"] = peoplePage > 1 ? "?people=\(peoplePage - 1)#flagged" : ""
            ctx["flaggedNext"] = peoplePage < pages ? "?people=\(peoplePage + 1)#flagged" : ""
            ctx["hasFlaggedPrev"] = peoplePage > 1
            ctx["hasFlaggedNext"] = peoplePage < pages
            let states = try await store.exclusionStates(deckId: deck.id)
            ctx["clusters"] = found.map { c -> [String: Any] in
                [
                    "size": c.members.count, "network": c.network, "from": String(c.joinedFrom), "reason": c.reason,
                    "excludedCount": c.members.filter(states.excluded.contains).count, "excludes": c.excludes,
                ]
            }
            ctx["hasClusters"] = !found.isEmpty
            let people = PeopleSummary(
                counted: report.participants, counts: try await store.trustCounts(deckId: deck.id), clusters: found,
                excludedNow: states.excluded)
            ctx["peopleCounted"] = people.counted
            ctx["peopleFlagged"] = people.flagged
            ctx["peopleExcluded"] = people.excluded
            ctx["peopleGroups"] = people.groups.map { g -> [String: Any] in
                [
                    "status": g.status.rawValue, "reason": g.reason, "people": g.people,
                    "excluded": g.status == .excluded,
                ]
            }
            ctx["hasPeopleGroups"] = !people.groups.isEmpty
            let quality = try await QualityReport.read(
                deck, store: store, names: ParticipantNames(signer: swipes.signer, store: store))
            ctx.merge(QualityView.context(quality)) { _, new in new }
        }
        ctx["pageTitle"] = "Results · \(deck.title)"
        return try renderer.page("results", ctx)
    }

    @Sendable func historyPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        let participant = swipes.cookieIdentity(context.cookies, deck: deck)
        var entries: [HistoryEntry] = []
        if let participant { entries = try await store.history(deckId: deck.id, participant: participant) }
        let now = clock()
        // You and the room: once the big screen revealed the results (or they are public), the room's
        // share beside each of this person's picks.
        var roomShares: [Int64: String] = [:]
        let revealed = try await store.presentation(deckId: deck.id)?.isRevealed(at: now) == true
        if !entries.isEmpty, revealed || deck.resultsPublic {
            for c in try await store.results(for: deck).cards where c.total > 0 {
                roomShares[c.cardId] =
                    "The room: \(ResultsView.ratePercent(c.likeRate)) \(deck.rightLabel) · \(ResultsView.votes(c.total))"
            }
        }
        let rows = entries.map { e -> [String: Any] in
            let d = e.swipe.direction
            return [
                "room": roomShares[e.card.id] ?? "",
                "id": e.swipe.id, "title": e.card.title, "image": renderer.assets.url(for: e.card.image),
                "accent": e.card.accent, "hasImage": !e.card.image.isEmpty, "direction": d.rawValue,
                "label": deck.label(for: d), "ago": Self.ago(now - e.swipe.createdAt),
                "detail": "/d/\(deck.slug)/cards/\(e.card.id)",
                "flipTo": deck.label(for: d.mirroredHorizontally),
            ]
        }
        var ctx = deckContext(deck)
        ctx["kind"] = "history"
        // A closed deck refuses undos and flips (409 deck_closed): the page offers none.
        ctx["closed"] = !deck.isOpen
        ctx["showResults"] = access.canReadResults(deck, context)
        ctx["pageTitle"] = "My swipes · \(deck.title)"
        ctx["rows"] = rows
        ctx["hasRows"] = !rows.isEmpty
        ctx["withRoom"] = !roomShares.isEmpty
        ctx["profileJSON"] = PageRenderer.scriptSafeJSON(SwipeProfile.reveal)
        ctx["listProfileJSON"] = PageRenderer.scriptSafeJSON(SwipeProfile.springList)
        return try renderer.page("history", ctx)
    }

    @Sendable func detailPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let deck = try await catalog.deck(slug)
        // An invitation-only deck's cards are for the people it admitted (and its owner).
        if deck.access != .link && swipes.cookieIdentity(context.cookies, deck: deck) == nil
            && context.owner?.manages(deck) != true
        {
            return try invitation(deck, error: nil, status: .forbidden)
        }
        guard let id = Int64(try context.parameters.require("card")), try await catalog.contains(card: id, in: slug),
            let card = try await store.card(id: id)
        else { throw ApiError.notFound("card") }
        let cardCount = try await catalog.cardCount(slug)
        let view = DetailView(
            card: card, deck: deck, cardCount: cardCount, showResults: access.canReadResults(deck, context),
            url: renderer.assets.url(for:))
        return try renderer.page("detail", view)
    }

    /// "just now", "3 min ago", "2 h ago", "5 d ago".
    static func ago(_ seconds: Double) -> String {
        if seconds < 60 { return "just now" }
        if seconds < 3600 { return "\(Int(seconds / 60)) min ago" }
        if seconds < 86400 { return "\(Int(seconds / 3600)) h ago" }
        return "\(Int(seconds / 86400)) d ago"
    }
}
