import Foundation
import Hummingbird
import Logging
import Prometheus
import SwipePhysics

/// Builds the whole app: database, writer, routes, middleware. `@main` and the tests call this.
///
/// - Parameters:
///   - clock: seconds since 1970; passed in so tests control time.
///   - onServerRunning: called with the bound port once listening (the CLI prints the URL).
///   - metricsRegistry: where the app's metrics are kept and `GET /metrics` reads them from
///     (the CLI passes the one it bootstrapped `MetricsSystem` with; tests pass their own).
public func buildApplication(
    _ config: AppConfiguration,
    logger: Logger = Logger(label: "swipedeck"),
    clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
    metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let store = try await openStore(config.database, synchronous: config.synchronous, logger: logger)
    // The store just opened from this location, so it parses; the text as given is only a fallback.
    logger.info(
        "database opened",
        metadata: [
            "location": "\((try? StoreLocation(config.database))?.redacted ?? config.database)",
            "engine": "\(store.engineDescription)",
        ])

    // Before anything stores a secret: a database of an older version has its secrets sealed now.
    let secretKey = try await SecretKeys.prepare(config, store: store, logger: logger)

    if config.seedSampleDeck, try await store.decks().isEmpty {
        let input = try SampleDeck.load(resourceRoot: config.resourceRoot)
        var (deck, cards) = try input.validated(now: clock())
        // An owner created before the first start (`swipedeck owner add` on a new file) gets it,
        // as they would have adopted it had the server started first.
        deck.ownerId = try await store.owners().min { $0.id < $1.id }?.id
        try await store.importDeck(deck, cards: cards)
        logger.info("seeded the sample deck", metadata: ["slug": "\(deck.slug)", "cards": "\(cards.count)"])
    }
    // The admin token is kept as its SHA-256 only (`adminTokenHash`; migrations turned a stored
    // plaintext `adminToken` into it), so a copy of the database, or `swipedeck copy`, signs nobody in.
    let adminTokenHash: String
    if let t = config.adminToken {
        adminTokenHash = Secret.sha256(t)
    } else {
        let fresh = Secret.token()
        let (stored, created) = try await store.setting(AdminToken.settingKey, orCreate: { Secret.sha256(fresh) })
        adminTokenHash = stored
        // Flushed at once: stdout may be a file or a pipe, and this line is shown only once.
        if created {
            FileHandle.standardOutput.write(
                Data("Admin token (shown once; the database keeps only its hash): \(fresh)\n".utf8))
        }
    }
    if try await store.owners().isEmpty {
        FileHandle.standardOutput.write(
            Data(
                "No owner account yet: create one with `swipedeck owner add NAME`, then sign in at /owner/sign-in.\n"
                    .utf8))
    }
    var secret = config.participantSecret ?? ""
    if config.participantSecret == nil {
        // The database keeps a seed (or, from before, the secret sealed): useless without the key.
        let stored = try await store.setting("participantSecret", orCreate: { Secret.token() }).value
        secret = try secretKey.reveal(stored, for: .participantSigning)
    }
    let signer = ParticipantSigner(secret: secret)
    // Browser cookies and API mints share one budget per client network: `rate` a second, a minute's
    // worth at once; one budget for every server on the database.
    let joins = JoinBudget(
        buckets: store.sharedBuckets(ratePerSecond: config.mintRateLimit, burst: config.mintRateLimit * 60),
        pool: store.sharedBuckets(
            ratePerSecond: config.mintRateLimit * JoinBudget.poolRateFactor,
            burst: config.mintRateLimit * 60 * JoinBudget.poolBurstFactor))
    // Past the free budget a join costs a puzzle, at the work the deck's and the network's pressure ask.
    let puzzles = JoinPuzzles(
        secret: secret, levels: store.sharedLevels(drainPerSecond: JoinDifficulty.drainPerSecond), store: store)
    let admissions = Admissions(
        store: store, signer: signer, joins: joins, puzzles: puzzles, secretKey: secretKey)
    let ipLimiter = RateLimiter(ratePerSecond: config.ipRateLimit, burst: config.ipRateLimit * 2)

    // Webhooks: the swipes each commit stored, for `swipe.created`; the dispatcher sending the
    // outbox's deliveries (a service below); the outbox every notice is posted to.
    let swipeNotices = SwipeNotices(store: store, names: ParticipantNames(signer: signer, store: store), logger: logger)
    let dispatcher = WebhookDispatcher(
        store: store, clock: clock, allowPrivate: config.webhookAllowPrivate,
        metrics: WebhookMetrics(factory: PrometheusMetricsFactory(registry: metricsRegistry)), relay: swipeNotices,
        secretKey: secretKey, logger: logger)
    let catalog = Catalog(store: store)
    let notices: any DeckNoticeSink = WebhookOutbox(store: store, clock: clock, dispatcher: dispatcher, logger: logger)
    swipeNotices.connect(notices)
    let metrics = AppMetrics(registry: metricsRegistry)
    let writer = SwipeWriter(
        store: store, maxBatch: config.maxBatch, changes: store.changes, metrics: metrics, swipeNotices: swipeNotices)
    let roomHub = RoomHub(store: store, notices: notices, interval: config.liveInterval, logger: logger)
    let rooms = RoomService(store: store, catalog: catalog, notices: notices, hub: roomHub, logger: logger)
    let swipes = SwipeService(
        catalog: catalog, writer: writer, store: store, signer: signer,
        participantLimiter: RateLimiter(
            ratePerSecond: config.participantRateLimit, burst: config.participantRateLimit * 4),
        metrics: metrics, rooms: rooms)
    // Every static file, and the stack stylesheet of every profile, read and compressed once.
    let assets = try await StaticAssets.shared(
        publicDirectory: config.resourceRoot + "/Public",
        generated: Dictionary(
            uniqueKeysWithValues: SwipeProfile.all.map { (StackStylesheet.path(for: $0), StackStylesheet.css(for: $0)) }
        ))
    let renderer = try await PageRenderer(
        templatesDirectory: config.resourceRoot + "/Templates", assets: assets, basePath: config.basePath)
    let access = DeckAccess(catalog: catalog, store: store)
    let decoding = RequestDecoding(maxBodyBytes: config.maxBodyBytes, budget: BodyBudget(bytes: config.maxBodyMemory))
    let passwords = PasswordHasher(cost: config.passwordCost)
    let images = ImageStore(directory: config.imagesDirectory)
    try images.prepare()

    // HEAD on a GET route runs the GET handler (Hummingbird has no implicit HEAD); HeadMiddleware drops the body.
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(
        middleware: ClientMiddleware(
            trusted: config.trustedProxies, publicHTTPS: config.publicHTTPS, hsts: config.hsts,
            cookiePrefix: config.basePath.isEmpty ? ClientMiddleware.hostPrefix : ClientMiddleware.securePrefix))
    // Next: every request is counted (and, with JSON logs, gets its id and an access line naming the client), whatever answers it.
    if config.logFormat == .json { router.add(middleware: RequestLogMiddleware()) }
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: HeadMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: SecurityHeadersMiddleware())
    // Outside ErrorMiddleware, so an error response also sets the cookie of a new participant.
    router.add(middleware: ParticipantMiddleware(signer: signer, joins: joins, clock: clock))
    router.add(middleware: ErrorMiddleware(renderer: renderer))
    router.add(middleware: StaticFilesMiddleware(assets: assets))
    router.add(middleware: SameOriginMiddleware(publicHost: config.publicHost))
    router.add(middleware: OwnerMiddleware(store: store, adminTokenHash: adminTokenHash, clock: clock))
    router.add(middleware: RateLimitMiddleware(perIP: ipLimiter, clock: clock))

    DecksController(store: store, catalog: catalog, access: access, decoding: decoding, clock: clock).register(
        on: router)
    let names = ParticipantNames(signer: signer, store: store)
    let knownAnswers = KnownAnswers(store: store, notices: notices, names: names)
    CardsController(
        store: store, catalog: catalog, access: access, swipes: swipes, decoding: decoding, knownAnswers: knownAnswers,
        clock: clock
    )
    .register(on: router)
    AccessController(store: store, access: access, decoding: decoding, secretKey: secretKey, clock: clock).register(
        on: router)
    ParticipantsController(catalog: catalog, admissions: admissions, decoding: decoding, clock: clock).register(
        on: router)
    let clusters = ClusterGuard(store: store)
    let decisions = DeckDecisions(
        store: store, catalog: catalog, clusters: clusters, notices: notices, logger: logger, clock: clock)
    SwipesController(
        store: store, catalog: catalog, swipes: swipes, decoding: decoding, ipLimiter: ipLimiter,
        decisions: decisions, knownAnswers: knownAnswers, clock: clock
    ).register(on: router)
    let live = LiveResults(
        store: store, catalog: catalog, interval: config.liveInterval,
        heartbeatTicks: max(1, Int(config.sseHeartbeat / config.liveInterval)), logger: logger)
    let streams = StreamLimiter(
        maxTotal: config.maxStreams, maxPerClient: config.maxStreamsPerClient,
        maxPerParticipant: config.maxStreamsPerClient)
    // As many again for public results' readers, a network holding at most what a room network may.
    let publicStreams = StreamLimiter(
        maxTotal: config.maxStreams, maxPerClient: config.maxStreamsPerClient,
        maxPerNetwork: config.maxRoomStreamsPerNetwork)
    ResultsController(
        store: store, catalog: catalog, access: access, decoding: decoding, live: live, streams: streams,
        publicStreams: publicStreams, names: names,
        clusters: clusters, clock: clock
    )
    .register(on: router)
    ExportsController(store: store, access: access, names: names).register(on: router)
    let webhookTargets = WebhookTargetCheck(resolver: SystemResolver(), allowPrivate: config.webhookAllowPrivate)
    WebhooksController(
        store: store, access: access, decoding: decoding, targets: webhookTargets, swipeNotices: swipeNotices,
        secretKey: secretKey, clock: clock
    ).register(on: router)
    QualityController(store: store, access: access, names: names).register(on: router)
    // One budget for guessing codes, rooms' and join codes' alike.
    let lookups = RoomLookupBudget(
        buckets: store.sharedBuckets(ratePerSecond: RoomLookupBudget.rate.perSecond, burst: RoomLookupBudget.rate.burst)
    )
    RoomsController(
        store: store, catalog: catalog, rooms: rooms, swipes: swipes, decoding: decoding,
        // A pool of their own: anonymous room streams never take an owner's live results place.
        streams: StreamLimiter(
            maxTotal: config.maxRoomStreams, maxPerClient: config.maxRoomStreamsPerClient,
            maxPerNetwork: config.maxRoomStreamsPerNetwork,
            maxPerParticipant: StreamLimiter.maxRoomStreamsPerParticipant),
        budget: RoomBudget(
            store: store,
            buckets: store.sharedBuckets(ratePerSecond: RoomBudget.rate.perSecond, burst: RoomBudget.rate.burst)),
        lookups: lookups,
        heartbeatTicks: max(1, Int(config.sseHeartbeat / config.liveInterval)),
        clock: clock
    ).register(on: router)
    let pages = PageController(
        store: store, catalog: catalog, swipes: swipes, access: access, renderer: renderer, clusters: clusters,
        admissions: admissions, knownAnswers: knownAnswers,
        clock: clock
    )
    pages.register(on: router)
    // Failed sign-ins (SignInGuard's defaults): per address and name 10, then one every 5 s; per
    // address 50, then one a second; at most `maxConcurrentPasswordChecks` bcrypt checks at once.
    let signInGuard = SignInGuard(maxConcurrentChecks: config.maxConcurrentPasswordChecks)
    // Computed once per start (one bcrypt at the configured cost) for unknown names to be checked against.
    let dummyHash = try await passwords.hash(Secret.token())
    // Every owner page but signing in and out needs an owner session: one middleware, in front of
    // the group, sends anybody else to the sign-in page.
    let ownerPages = router.group().add(middleware: SessionOwnerMiddleware())
    OwnerSessionController(
        store: store, renderer: renderer, passwords: passwords, signInGuard: signInGuard, dummyHash: dummyHash,
        clock: clock
    ).register(on: router, pages: ownerPages)
    OwnerDashboardController(store: store, renderer: renderer, clock: clock).register(on: ownerPages)
    OwnerResultsController(store: store, access: access, names: names, clusters: clusters, clock: clock)
        .register(on: ownerPages)
    OwnerDecksController(store: store, access: access, renderer: renderer, clock: clock).register(on: ownerPages)
    OwnerCardsController(store: store, access: access, renderer: renderer, clock: clock).register(on: ownerPages)
    OwnerWebhooksController(
        store: store, access: access, renderer: renderer, targets: webhookTargets, swipeNotices: swipeNotices,
        secretKey: secretKey, clock: clock
    ).register(on: ownerPages)
    let share = ShareController(
        store: store, catalog: catalog, access: access, clock: clock, renderer: renderer,
        publicBaseURL: config.publicBaseURL, basePath: config.basePath, secretKey: secretKey
    )
    share.register(on: router, pages: ownerPages)
    RoomPageController(
        store: store, catalog: catalog, rooms: rooms, swipes: swipes, pages: pages, share: share, renderer: renderer,
        clock: clock
    ).register(on: router)
    // Phones following a deck on a big screen: one read per deck and interval, a stream pool of their own.
    let stages = StageHub(store: store, interval: config.liveInterval, clock: clock, logger: logger)
    StageController(
        store: store, catalog: catalog, swipes: swipes, hub: stages,
        streams: StreamLimiter(maxTotal: config.maxStageStreams, maxPerClient: config.maxStageStreams),
        sessions: StageSessions(),
        heartbeatTicks: max(1, Int(config.sseHeartbeat / config.liveInterval)), clock: clock
    ).register(on: router)
    PresentController(
        store: store, catalog: catalog, access: access, share: share, renderer: renderer, lookups: lookups, live: live,
        streams: streams, secretKey: secretKey, clock: clock
    ).register(on: router, pages: ownerPages)
    ImagesController(
        store: store, images: images, maxImageBytes: config.maxImageBytes, maxPixels: config.maxImagePixels,
        clock: clock
    )
    .register(on: router)
    if let token = config.metricsToken {
        MetricsController(metrics: metrics, tokenHash: Secret.sha256(token), live: live, writer: writer).register(
            on: router)
    }

    let connections = ConnectionLimiter(
        maxTotal: config.maxConnections, maxPerAddress: config.maxConnectionsPerAddress,
        isExempt: { [proxies = config.trustedProxies] in proxies.contains($0) })
    return Application(
        responder: ChildTaskResponder(
            inner: BasePathResponder(basePath: config.basePath, inner: router.buildResponder())),
        server: .guardedHTTP1(
            limiter: connections, idleTimeout: config.idleTimeout, headerTimeout: config.headerTimeout,
            bodyTimeout: config.bodyTimeout),
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "swipedeck"),
        // Shut down in reverse: the dispatcher stops sending before the store closes.
        services: [StoreService(store: store), dispatcher, MemoryTrimmer()],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? config.port) },
        logger: logger)
}
