import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import SwipedeckServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve decks over HTTP (the default command).")

    @Option(help: "Interface to bind.") var host = "127.0.0.1"
    @Option(help: "TCP port (0 picks a free one).") var port = 8080
    @OptionGroup var db: DatabaseOption
    @Option(
        help:
            "Admin token (env SWIPEDECK_ADMIN_TOKEN or SWIPEDECK_ADMIN_TOKEN_FILE); generated and printed once when unset."
    ) var adminToken: String?
    @Option(
        help:
            "SQLite's PRAGMA synchronous: normal (crash-safe) or full (power-loss-safe) (env SWIPEDECK_SYNCHRONOUS); PostgreSQL follows its synchronous_commit."
    )
    var synchronous: String?
    @Option(
        help:
            "Decisions (swipes, batch items, undos, flips) per second per participant, 0 = unlimited (env SWIPEDECK_RATE_PARTICIPANT)."
    ) var rateParticipant: Double?
    @Option(help: "State-changing requests per second per IP, 0 = unlimited (env SWIPEDECK_RATE_IP).") var rateIp:
        Double?
    @Option(help: "Largest request body in bytes (env SWIPEDECK_MAX_BODY).") var maxBody: Int?
    @Option(
        help:
            "Most memory the API's request bodies being read hold together, bytes; 0 = unlimited (env SWIPEDECK_MAX_BODY_MEMORY); default 256 MiB."
    )
    var maxBodyMemory: Int?
    @Option(
        help: "Participant ids minted per second per IP (burst 60 × rate), 0 = unlimited (env SWIPEDECK_RATE_MINT).")
    var rateMint: Double?
    @Option(
        help: "Public origin for shared links and QR codes, e.g. https://decks.example.org (env SWIPEDECK_PUBLIC_URL).")
    var publicUrl: String?
    @Option(
        help:
            "Secret signing participant ids (env SWIPEDECK_PARTICIPANT_SECRET or SWIPEDECK_PARTICIPANT_SECRET_FILE); generated and stored when unset."
    )
    var participantSecret: String?
    @OptionGroup var key: SecretKeyOption
    @Option(
        help:
            "A reverse proxy (IP address or CIDR range) whose X-Forwarded-For, Forwarded, X-Forwarded-Proto and X-Forwarded-Host are believed; repeatable (env SWIPEDECK_TRUSTED_PROXIES, comma-separated)."
    )
    var trustedProxy: [String] = []
    @Option(
        help:
            "Serve everything under this sub-path, e.g. /decks (env SWIPEDECK_BASE_PATH); --public-url stays the origin."
    )
    var basePath: String?
    @Flag(help: "Send Strict-Transport-Security on HTTPS answers (env SWIPEDECK_HSTS=1).") var hsts = false
    @Flag(
        help:
            "Let webhooks reach loopback, private, link-local and metadata addresses (env SWIPEDECK_WEBHOOK_ALLOW_PRIVATE=1)."
    ) var webhookAllowPrivate = false
    @Flag(help: "Do not seed the sample deck into an empty database.") var noSample = false
    @Option(
        help:
            "Folder for uploaded images, in its images/ subfolder (env SWIPEDECK_DATA_DIR); default <db>-data beside the database."
    )
    var dataDir: String?
    @Option(help: "Largest image upload in bytes (env SWIPEDECK_MAX_IMAGE_BYTES); default 8 MiB.") var maxImageBytes:
        Int?
    @Option(
        help:
            "Largest decoded image in pixels, width × height (env SWIPEDECK_MAX_IMAGE_PIXELS); default 40000000 (40 MP)."
    )
    var maxImagePixels: Int?
    @Option(
        help:
            "Most bcrypt password checks at once; sign-ins beyond them get 429 (env SWIPEDECK_PASSWORD_CHECKS); default 4."
    )
    var passwordChecks: Int?
    @Option(
        help:
            "Seconds a connection may wait between requests before it is closed (env SWIPEDECK_IDLE_TIMEOUT); default 75."
    )
    var idleTimeout: Double?
    @Option(
        help:
            "Seconds from a request's first byte to its complete headers before the connection is closed (env SWIPEDECK_HEADER_TIMEOUT); default 10."
    )
    var headerTimeout: Double?
    @Option(
        help:
            "Seconds from a request's headers to the end of its body before the connection is closed (env SWIPEDECK_BODY_TIMEOUT); default 60."
    )
    var bodyTimeout: Double?
    @Option(
        help:
            "Most open connections in all; more are answered 503 and closed (env SWIPEDECK_MAX_CONNECTIONS); default ulimit -n less 128."
    )
    var maxConnections: Int?
    @Option(
        help:
            "Most open connections from one peer address (env SWIPEDECK_MAX_CONNECTIONS_PER_ADDRESS); default a quarter of --max-connections."
    )
    var maxConnectionsPerAddress: Int?
    @Option(help: "Most live results streams open at once; more get 429 (env SWIPEDECK_MAX_STREAMS); default 1000.")
    var maxStreams: Int?
    @Option(
        help:
            "Most live results streams open at once per client address (env SWIPEDECK_MAX_STREAMS_PER_CLIENT); default 16."
    )
    var maxStreamsPerClient: Int?
    @Option(
        help:
            "Most room event streams open at once, apart from live results (env SWIPEDECK_MAX_ROOM_STREAMS); default 1000."
    )
    var maxRoomStreams: Int?
    @Option(
        help:
            "Most room event streams open at once per client address (env SWIPEDECK_MAX_ROOM_STREAMS_PER_CLIENT); default 16."
    )
    var maxRoomStreamsPerClient: Int?
    @Option(
        help:
            "Most room event streams open at once per client /24 or /64 network (env SWIPEDECK_MAX_ROOM_STREAMS_PER_NETWORK); default 64."
    )
    var maxRoomStreamsPerNetwork: Int?
    @Option(
        help:
            "Most stage streams (phones following a deck on a big screen) open at once, a pool of their own (env SWIPEDECK_MAX_STAGE_STREAMS); default 2000."
    )
    var maxStageStreams: Int?
    @Option(
        help:
            "Seconds between heartbeats on a quiet live results stream, below --idle-timeout (env SWIPEDECK_SSE_HEARTBEAT); default 15."
    )
    var sseHeartbeat: Double?
    @Option(
        help:
            "Serve GET /metrics (Prometheus) to scrapers sending this Bearer token (env SWIPEDECK_METRICS_TOKEN or SWIPEDECK_METRICS_TOKEN_FILE); off when unset."
    )
    var metricsToken: String?
    @Option(
        help:
            "Log lines as text or json; json adds a request id and one access line per request (env SWIPEDECK_LOG_FORMAT)."
    )
    var logFormat: String?

    func run() async throws {
        let env = EnvironmentSettings()
        // Before the defaults are read from it: the connection caps follow the limit.
        DescriptorLimit.raise()
        var config = AppConfiguration()
        config.host = host
        config.port = port
        config.database = try db.location
        do {
            if case .sqlite(let path) = try StoreLocation(config.database) { try ServerLock.take(sqlite: path) }
        } catch let error as StoreLocationError {
            throw ValidationError(error.description)
        }
        config.adminToken = try adminToken ?? env.secret("SWIPEDECK_ADMIN_TOKEN")
        if let s = synchronous {
            guard let mode = AppDatabase.SynchronousMode(rawValue: s.lowercased()) else {
                throw ValidationError("--synchronous must be normal or full")
            }
            config.synchronous = mode
        } else if let mode = try env.choice("SWIPEDECK_SYNCHRONOUS", AppDatabase.SynchronousMode.self) {
            config.synchronous = mode
        }
        if let r = try rateParticipant ?? env.double("SWIPEDECK_RATE_PARTICIPANT", example: "10") {
            config.participantRateLimit = r
        }
        if let r = try rateIp ?? env.double("SWIPEDECK_RATE_IP", example: "5000") { config.ipRateLimit = r }
        if let r = try rateMint ?? env.double("SWIPEDECK_RATE_MINT", example: "2") { config.mintRateLimit = r }
        config.participantSecret = try participantSecret ?? env.secret("SWIPEDECK_PARTICIPANT_SECRET")
        try key.apply(to: &config, env: env)
        config.metricsToken = try metricsToken ?? env.secret("SWIPEDECK_METRICS_TOKEN")
        if let token = config.metricsToken, token.count < 16 {
            throw ValidationError(
                "The metrics token is \(token.count) characters long: use at least 16 (e.g. openssl rand -hex 32).")
        }
        if let f = logFormat {
            guard let format = LogFormat(rawValue: f.lowercased()) else {
                throw ValidationError("--log-format must be text or json.")
            }
            config.logFormat = format
        } else if let format = try env.choice("SWIPEDECK_LOG_FORMAT", LogFormat.self) {
            config.logFormat = format
        }
        if let url = publicUrl ?? env.string("SWIPEDECK_PUBLIC_URL") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url) != nil else {
                let name = publicUrl == nil ? "SWIPEDECK_PUBLIC_URL" : "--public-url"
                throw ValidationError(
                    "\(name) must be an http:// or https:// origin, such as https://decks.example.org.")
            }
            config.publicBaseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        do {
            let proxies =
                trustedProxy.isEmpty
                ? (env.string("SWIPEDECK_TRUSTED_PROXIES") ?? "").split(separator: ",").map(String.init) : trustedProxy
            config.trustedProxies = try TrustedProxies(parsing: proxies)
        } catch let error as TrustedProxies.Invalid {
            throw ValidationError(
                trustedProxy.isEmpty
                    ? "SWIPEDECK_TRUSTED_PROXIES: \(error.description)" : "--trusted-proxy: \(error.description)")
        }
        if let path = basePath ?? env.string("SWIPEDECK_BASE_PATH"), !path.isEmpty, path != "/" {
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard BasePath.isValid(trimmed) else {
                throw ValidationError(
                    "\(basePath == nil ? "SWIPEDECK_BASE_PATH" : "--base-path") is '\(path)': it must be a path such as /decks (letters, digits, - _ . ~ between slashes)."
                )
            }
            config.basePath = trimmed
        }
        config.hsts = try hsts || env.flag("SWIPEDECK_HSTS") ?? false
        config.webhookAllowPrivate = try webhookAllowPrivate || env.flag("SWIPEDECK_WEBHOOK_ALLOW_PRIVATE") ?? false
        if let b = try maxBody ?? env.int("SWIPEDECK_MAX_BODY", example: "2097152") { config.maxBodyBytes = b }
        if let b = try maxBodyMemory ?? env.int("SWIPEDECK_MAX_BODY_MEMORY", example: "268435456") {
            config.maxBodyMemory = b
        }
        config.seedSampleDeck = !noSample
        config.dataDirectory = dataDir ?? env.string("SWIPEDECK_DATA_DIR")
        if let b = try maxImageBytes ?? env.int("SWIPEDECK_MAX_IMAGE_BYTES", example: "8388608") {
            config.maxImageBytes = b
        }
        if let n = try maxImagePixels ?? env.int("SWIPEDECK_MAX_IMAGE_PIXELS", example: "40000000") {
            guard n >= 1 else { throw ValidationError("--max-image-pixels must be at least 1.") }
            config.maxImagePixels = n
        }
        if let n = try passwordChecks ?? env.int("SWIPEDECK_PASSWORD_CHECKS", example: "4") {
            guard n >= 1 else { throw ValidationError("--password-checks must be at least 1.") }
            config.maxConcurrentPasswordChecks = n
        }
        try applyLimits(to: &config, env: env)
        var logger =
            config.logFormat == .json
            ? Logger(label: "swipedeck", factory: JSONLogHandler.init) : Logger(label: "swipedeck")
        logger.logLevel = try env.choice("SWIPEDECK_LOG_LEVEL", Logger.Level.self) ?? .info
        // Process-global, so bootstrapped here once: libraries' metrics join the app's in one registry.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let host = config.host
        let app = try await db.explainingFailures {
            try await buildApplication(
                config, logger: logger, metricsRegistry: registry,
                onServerRunning: { port in
                    FileHandle.standardOutput.write(Data("Swipedeck is serving on http://\(host):\(port)\n".utf8))
                })
        }
        try await app.runService()
    }

    /// The connection and stream limits from flags, else environment variables (read as every
    /// other variable is, `EnvironmentSettings`); a value that is not a number, or limits that
    /// cannot work together, stop the start with a sentence.
    func applyLimits(to config: inout AppConfiguration, env: EnvironmentSettings) throws {
        func seconds(_ s: Double, _ name: String) throws -> Duration {
            guard s.isFinite, s > 0, s < 86_400 else {
                throw ValidationError("--\(name) must be a number of seconds between 0 and 86400.")
            }
            return .milliseconds(Int64((s * 1000).rounded()))
        }
        if let s = try idleTimeout ?? env.double("SWIPEDECK_IDLE_TIMEOUT", example: "75") {
            config.idleTimeout = try seconds(s, "idle-timeout")
            // The default heartbeat follows a shorter idle timeout, staying below it.
            if config.sseHeartbeat >= config.idleTimeout { config.sseHeartbeat = config.idleTimeout / 2 }
        }
        if let s = try headerTimeout ?? env.double("SWIPEDECK_HEADER_TIMEOUT", example: "10") {
            config.headerTimeout = try seconds(s, "header-timeout")
        }
        if let s = try bodyTimeout ?? env.double("SWIPEDECK_BODY_TIMEOUT", example: "60") {
            config.bodyTimeout = try seconds(s, "body-timeout")
        }
        if let n = try maxConnections ?? env.int("SWIPEDECK_MAX_CONNECTIONS", example: "4096") {
            config.maxConnections = n
            config.maxConnectionsPerAddress = max(1, n / 4)
        }
        if let n = try maxConnectionsPerAddress ?? env.int("SWIPEDECK_MAX_CONNECTIONS_PER_ADDRESS", example: "1024") {
            config.maxConnectionsPerAddress = n
        }
        if let n = try maxStreams ?? env.int("SWIPEDECK_MAX_STREAMS", example: "1000") { config.maxStreams = n }
        if let n = try maxStreamsPerClient ?? env.int("SWIPEDECK_MAX_STREAMS_PER_CLIENT", example: "16") {
            config.maxStreamsPerClient = n
        }
        if let n = try maxRoomStreams ?? env.int("SWIPEDECK_MAX_ROOM_STREAMS", example: "1000") {
            config.maxRoomStreams = n
        }
        if let n = try maxRoomStreamsPerClient ?? env.int("SWIPEDECK_MAX_ROOM_STREAMS_PER_CLIENT", example: "16") {
            config.maxRoomStreamsPerClient = n
        }
        if let n = try maxRoomStreamsPerNetwork ?? env.int("SWIPEDECK_MAX_ROOM_STREAMS_PER_NETWORK", example: "64") {
            config.maxRoomStreamsPerNetwork = n
        }
        if let n = try maxStageStreams ?? env.int("SWIPEDECK_MAX_STAGE_STREAMS", example: "2000") {
            config.maxStageStreams = n
        }
        if let s = try sseHeartbeat ?? env.double("SWIPEDECK_SSE_HEARTBEAT", example: "15") {
            config.sseHeartbeat = try seconds(s, "sse-heartbeat")
        }
        if let problem = config.limitsProblem { throw ValidationError(problem) }
    }
}
