import Foundation
import Hummingbird
import Logging

/// Builds the whole app: database, writer, routes, middleware. `@main` and the tests call this.
///
/// - Parameters:
///   - clock: seconds since 1970; passed in so tests control time.
///   - onServerRunning: called with the bound port once listening (the CLI prints the URL).
public func buildApplication(
    _ config: AppConfiguration,
    logger: Logger = Logger(label: "swipedeck"),
    clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let database = try AppDatabase(path: config.databasePath, synchronous: config.synchronous)
    logger.info("database opened", metadata: ["path": "\(config.databasePath)", "synchronous": "\(database.synchronousName)", "journal": "wal"])

    if config.seedSampleDeck, try database.decks().isEmpty {
        let input = try SampleDeck.load(resourceRoot: config.resourceRoot)
        let (deck, cards) = try input.validated(now: clock())
        try database.importDeck(deck, cards: cards)
        logger.info("seeded the sample deck", metadata: ["slug": "\(deck.slug)", "cards": "\(cards.count)"])
    }
    let token: String
    if let t = config.adminToken {
        token = t
    } else {
        let (t, created) = try database.adminToken(orCreate: { ParticipantMiddleware.newId() + ParticipantMiddleware.newId() })
        token = t
        if created { print("Admin token (shown once, stored in the database): \(t)") }
    }

    let catalog = Catalog(database: database)
    let writer = SwipeWriter(pool: database.pool, maxBatch: config.maxBatch)
    let swipes = SwipeService(catalog: catalog, writer: writer)
    let renderer = try await PageRenderer(templatesDirectory: config.resourceRoot + "/Templates")

    // HEAD on a GET route runs the GET handler (Hummingbird has no implicit HEAD); HeadMiddleware drops the body.
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: HeadMiddleware())
    router.add(middleware: SecurityHeadersMiddleware())
    // Outside ErrorMiddleware, so an error response also sets the cookie of a new participant.
    router.add(middleware: ParticipantMiddleware())
    router.add(middleware: ErrorMiddleware(renderer: renderer))
    router.add(middleware: FileMiddleware(config.resourceRoot + "/Public", searchForIndexHtml: false))
    router.add(middleware: SameOriginMiddleware())
    router.add(middleware: RateLimitMiddleware(
        perParticipant: RateLimiter(ratePerSecond: config.participantRateLimit, burst: config.participantRateLimit * 4),
        perIP: RateLimiter(ratePerSecond: config.ipRateLimit, burst: config.ipRateLimit * 2)))

    ApiController(database: database, catalog: catalog, swipes: swipes, adminToken: token, maxBodyBytes: config.maxBodyBytes, clock: clock)
        .register(on: router)
    PageController(database: database, catalog: catalog, swipes: swipes, renderer: renderer, clock: clock)
        .register(on: router)

    return Application(
        router: router,
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "swipedeck"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? config.port) },
        logger: logger)
}
