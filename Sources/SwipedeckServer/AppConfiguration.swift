import Foundation

/// Everything `buildApplication` needs. The CLI fills it from flags and environment variables;
/// tests build one directly.
public struct AppConfiguration: Sendable {
    /// Interface to bind. Default 127.0.0.1.
    public var host: String = "127.0.0.1"
    /// TCP port. Default 8080.
    public var port: Int = 8080
    /// Where the data lives (`StoreLocation`): an SQLite file path (default `./swipedeck.sqlite`),
    /// `sqlite:PATH`, or a `postgres://USER@HOST:PORT/DB` URL.
    public var database: String = "swipedeck.sqlite"
    /// Admin token; nil = generate on first run, store in the database, print once.
    public var adminToken: String?
    /// Directory holding `Templates/` and `Public/`. Default: the current directory if it has
    /// them, else the source checkout this binary was built from.
    public var resourceRoot: String = AppConfiguration.defaultResourceRoot()
    /// Largest accepted request body, bytes. Default 2 MiB (a 100,000-sample trace still parses
    /// and is refused as `too_long`).
    public var maxBodyBytes: Int = 2 * 1024 * 1024
    /// Most memory the API's request bodies being read may hold together, bytes (each reserves its
    /// `Content-Length`; beyond it 503 `server_busy` with Retry-After); 0 = unlimited. Default
    /// 256 MiB: 128 bodies of the largest size at once, tens of thousands of ordinary swipes.
    public var maxBodyMemory: Int = 256 * 1024 * 1024
    /// Decisions (swipes, batch items, undos, flips) per second per participant identity,
    /// whether the cookie or the body names it (0 = unlimited); burst = 4 × rate. Default 10: a
    /// person decides at most a few cards a second, and a queue delivering 40 decisions made
    /// offline goes through at once.
    public var participantRateLimit: Double = 10
    /// State-changing requests per second per IP, a batch counting as its items (0 = unlimited);
    /// burst = 2 × rate.
    public var ipRateLimit: Double = 5000
    /// Participant credentials minted per second per client network (IPv4 /24, IPv6 /64), for
    /// browser cookies and `POST …/participants` together (0 = unlimited); burst = 60 × rate, so
    /// 120 phones behind one NAT join within a minute. Default 2.
    public var mintRateLimit: Double = 2
    /// Secret that signs participant ids; nil = generated on first run and kept in the database
    /// under the secret key (`SecretKey`). Several servers on one database share the stored one.
    public var participantSecret: String?
    /// The server's secret key, without which no secret the database stores can be used
    /// (`SecretKey`): given (`SWIPEDECK_SECRET_KEY`), else read from `secretKeyFile`.
    public var secretKey: SecretKey?
    /// The file holding the secret key (64 hex digits); nil = `<data folder>/secret.key`, made on
    /// first start. Servers on one database need the same key (the shared data folder's).
    public var secretKeyFile: String?
    /// bcrypt cost of owner passwords (4…31). Default 12 (about 0.25 s per hash here).
    public var passwordCost: UInt8 = 12
    /// Most bcrypt password checks (sign-ins, password changes) running at once; an attempt
    /// beyond them is answered 429 at once instead of queueing CPU work. Default 4 (two per core
    /// of a small server: a sign-in storm cannot take the machine).
    public var maxConcurrentPasswordChecks: Int = 4
    /// The origin people reach the server at (e.g. `https://decks.example.org`), for shared links
    /// and QR codes; nil = the request's own host. No trailing slash.
    public var publicBaseURL: String?
    /// The sub-path everything is served under (`/decks`: pages, assets, API, cookies' path,
    /// links, QR codes), for a proxy that forwards a prefix of its site; empty (the default): the
    /// root. A leading slash, no trailing one (`BasePathMiddleware.isValid`).
    public var basePath = ""
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded`, `X-Forwarded-Proto` and
    /// `X-Forwarded-Host` are believed (`ClientOrigin`); from any other peer they are ignored.
    /// Default none: the socket peer is the client.
    /// They are also exempt from `maxConnectionsPerAddress` (every client arrives through them;
    /// they still count towards `maxConnections`).
    public var trustedProxies: TrustedProxies = .none
    /// Let webhooks reach loopback, private, link-local, CGNAT and metadata addresses
    /// (`WebhookTarget`). Default off: an owner's hook must not make the server call into its
    /// own network; tests (and a receiver on the same host) turn it on.
    public var webhookAllowPrivate = false
    /// Send `Strict-Transport-Security: max-age=31536000` on HTTPS answers. Default off: once a
    /// browser has seen it, the host is HTTPS-only for it for a year.
    public var hsts = false
    /// The public URL is https: every request counts as HTTPS (cookies `Secure`, `__Host-`).
    public var publicHTTPS: Bool { publicBaseURL?.lowercased().hasPrefix("https://") ?? false }
    /// The host (and port) of the public URL, if configured.
    public var publicHost: String? {
        publicBaseURL.flatMap { URL(string: $0) }.flatMap { url in
            url.host.map { h in url.port.map { "\(h):\($0)" } ?? h }
        }
    }
    /// How often the live results stream looks for changes (at most one update per deck per
    /// interval). Default 1 s; tests shorten it.
    public var liveInterval: Duration = .seconds(1)
    /// SQLite's `PRAGMA synchronous`: normal (crash-safe) or full (power-loss-safe). PostgreSQL
    /// follows the server's `synchronous_commit`.
    public var synchronous: AppDatabase.SynchronousMode = .normal
    /// Seed the bundled sample deck when the database has no decks. Default true.
    public var seedSampleDeck: Bool = true
    /// Most swipes in one group-commit transaction.
    public var maxBatch: Int = 256
    /// Folder for uploaded files; nil = `<database>-data` beside an SQLite file, `./swipedeck-data`
    /// for PostgreSQL (servers sharing one database need one shared folder). Images go in its
    /// `images` subfolder (created at start).
    public var dataDirectory: String?
    /// Largest accepted image upload, bytes. Default 8 MiB.
    public var maxImageBytes: Int = 8 * 1024 * 1024
    /// Largest accepted decoded image, width × height in pixels (`ImageSniffer.inspect`). Default 40 million.
    public var maxImagePixels: Int = ImageSniffer.defaultMaxPixels

    // Connection hygiene: see README § Limits.

    /// Seconds a connection may wait between requests (keep-alive) before it is closed; a
    /// response being written (a live results stream) is never cut. Default 75 s: above the
    /// 60 s a proxy such as nginx keeps idle upstream connections, so the proxy closes first.
    public var idleTimeout: Duration = .seconds(75)
    /// Seconds from a request's first byte to its complete head (request line and headers)
    /// before the connection is closed: a slowloris client trickling headers holds a connection
    /// this long at most. Default 10 s: a head is a packet or two, even on a poor phone link.
    public var headerTimeout: Duration = .seconds(10)
    /// Seconds from a request's head to the end of its body before the connection is closed: a
    /// client trickling a body holds a connection this long at most. Default 60 s: an 8 MB image
    /// from a phone on a 1.2 Mbit/s uplink.
    public var bodyTimeout: Duration = .seconds(60)
    /// Most open connections in all; beyond it a new connection is answered 503
    /// `too_many_connections` and closed. Default: the process's descriptor limit
    /// (`ulimit -n`) less 128 kept for the database, images and logs, so the server refuses
    /// politely before `accept` fails.
    public var maxConnections: Int = AppConfiguration.defaultMaxConnections()
    /// Most open connections from one peer address (the socket's, not a forwarded one); beyond
    /// it a new connection is answered like one beyond `maxConnections`. Default a quarter of
    /// the default `maxConnections`: no one address can take the server, and a few hundred
    /// phones behind one NAT fit (raise it for larger crowds on one address).
    public var maxConnectionsPerAddress: Int = AppConfiguration.defaultMaxConnections() / 4
    /// Most live results streams open at once in all; beyond it 429 `too_many_streams`.
    /// Default 1,000 (each open stream costs some 40–70 KB: about 70 MB at the cap).
    public var maxStreams: Int = 1000
    /// Most live results streams open at once per client address (`remoteAddress`); beyond it
    /// 429 `too_many_streams`. Default 16: a few screens per person, or a room of projectors
    /// behind one NAT.
    public var maxStreamsPerClient: Int = 16
    /// Most room event streams (`GET /api/v1/rooms/{code}/events`) open at once in all, a pool
    /// of their own so anonymous room streams never take the owners' live results places;
    /// beyond it 429 `too_many_streams`. Default 1,000 (40–70 KB each, like a live stream).
    public var maxRoomStreams: Int = 1000
    /// Most room event streams open at once per client address. Default 16, as for live results.
    public var maxRoomStreamsPerClient: Int = 16
    /// Most room event streams open at once per client network (`ClientNetwork.key`: the /24 or
    /// /64 the join budget uses), so rotating addresses within one network gains nothing.
    /// Default 64: a classroom or an office on one network, each with a phone and a laptop.
    /// (Per participant credential the cap is `StreamLimiter.maxRoomStreamsPerParticipant`.)
    public var maxRoomStreamsPerNetwork: Int = 64
    /// Most stage streams (`GET /d/{deck}/stage`: phones following a deck on a big screen) open at
    /// once, a pool of their own; not capped per address or network, since a hall on one Wi-Fi is
    /// one address, but per participant credential (`StageSessions.maxPerCredential`).
    /// Default 2,000: two halls of a thousand (40–70 KB each: about 140 MB at the cap).
    public var maxStageStreams: Int = 2000
    /// Time between two `: ping` comments on a quiet live results stream, which keep proxies
    /// from closing it and find watchers that left. Default 15 s; must stay below
    /// `idleTimeout` (and a proxy's read timeout, nginx's 60 s).
    public var sseHeartbeat: Duration = .seconds(15)

    /// Descriptors kept out of `defaultMaxConnections` for the database, images and logs.
    static let reservedDescriptors = 128

    /// The largest descriptor limit the defaults count (and `swipedeck serve` raises its soft limit to).
    public static let descriptorCeiling = 65_536

    /// The soft descriptor limit less `reservedDescriptors` (at least 16; an unlimited or very
    /// large limit counts as `descriptorCeiling`).
    public static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 - reservedDescriptors }
        let soft = Int(min(limit.rlim_cur, rlim_t(descriptorCeiling)))  // RLIM_INFINITY is the largest rlim_t
        return max(16, soft - reservedDescriptors)
    }

    /// Why the limits cannot work together, in a sentence; nil when they can.
    public var limitsProblem: String? {
        if idleTimeout <= .zero || headerTimeout <= .zero || bodyTimeout <= .zero || sseHeartbeat <= .zero {
            return "The idle, header and body timeouts and the heartbeat must be longer than 0 s."
        }
        if sseHeartbeat >= idleTimeout {
            return
                "The live results heartbeat (\(sseHeartbeat)) must be shorter than the idle timeout (\(idleTimeout))."
        }
        if maxConnections < 1 || maxConnectionsPerAddress < 1 || maxStreams < 1 || maxStreamsPerClient < 1
            || maxRoomStreams < 1 || maxRoomStreamsPerClient < 1 || maxRoomStreamsPerNetwork < 1 || maxStageStreams < 1
        {
            return "Connection and stream caps must be at least 1."
        }
        return nil
    }
    /// Bearer token a scraper sends for `GET /metrics`; nil (the default) leaves `/metrics` a 404.
    public var metricsToken: String?
    /// Log lines as plain text (default) or JSON; JSON also writes one access line per request.
    public var logFormat: LogFormat = .text

    /// Where uploaded images are stored: `<dataDirectory>/images`.
    public var imagesDirectory: String {
        dataFolder + "/images"
    }

    /// Where the secret key is read from, or made on first start.
    public var secretKeyPath: String {
        secretKeyFile ?? dataFolder + "/secret.key"
    }

    /// The data folder: `dataDirectory`, else `<database>-data` beside an SQLite file, else
    /// `swipedeck-data`.
    public var dataFolder: String {
        if let dataDirectory { return dataDirectory }
        // A location that does not parse opens no store either: the server stops on that error first.
        if case .sqlite(let path)? = try? StoreLocation(database) { return path + "-data" }
        return "swipedeck-data"
    }

    public init() {}

    public static func defaultResourceRoot() -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: cwd + "/Templates/layout.mustache") { return cwd }
        // Sources/SwipedeckServer/AppConfiguration.swift → repository root.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
