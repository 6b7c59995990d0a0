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
    /// Secret that signs participant ids; nil = generated on first run and kept in the database.
    /// Several servers on one database share the stored one.
    public var participantSecret: String?
    /// bcrypt cost of owner passwords (4…31). Default 12 (about 0.25 s per hash here).
    public var passwordCost: UInt8 = 12
    /// Most bcrypt password checks (sign-ins, password changes) running at once; an attempt
    /// beyond them is answered 429 at once instead of queueing CPU work. Default 4 (two per core
    /// of a small server: a sign-in storm cannot take the machine).
    public var maxConcurrentPasswordChecks: Int = 4
    /// The origin people reach the server at (e.g. `https://decks.example.org`), for shared links
    /// and QR codes; nil = the request's own host. No trailing slash.
    public var publicBaseURL: String?
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
    /// Largest accepted image width × height, pixels. Default 50 million.
    public var maxImagePixels: Int = ImageSniffer.defaultMaxPixels

    /// Bearer token a scraper sends for `GET /metrics`; nil (the default) leaves `/metrics` a 404.
    public var metricsToken: String?
    /// Log lines as plain text (default) or JSON; JSON also writes one access line per request.
    public var logFormat: LogFormat = .text

    /// Where uploaded images are stored: `<dataDirectory>/images`.
    public var imagesDirectory: String {
        if let dataDirectory { return dataDirectory + "/images" }
        if case .sqlite(let path)? = try? StoreLocation(database) { return path + "-data/images" }
        return "swipedeck-data/images"
    }

    public init() {}

    public static func defaultResourceRoot() -> String {
        let cwd = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: cwd + "/Templates/layout.mustache") { return cwd }
        // Sources/SwipedeckServer/AppConfiguration.swift → repository root.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
