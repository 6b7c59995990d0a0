import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresNIO
import Prometheus
import SwipePhysics
import Synchronization
import TestSupport
import Testing

@testable import SwipedeckServer

// Shared helpers of the server tests: an app built exactly as production builds it (on a fresh
// temporary SQLite file), request shorthands, a small JSON reader and trace builders.
// No suite lives here.

/// The time every test app reads from its clock (seconds since 1970).
let fixedTime: Double = 1_790_000_000

/// The admin token every test app is configured with.
let adminToken = "t0ken"

/// The participant-signing secret every test app is configured with.
let participantSecret = "test-participant-secret-0123456789"

/// The secret key every test app is configured with (`SecretKey`): the database's secrets are
/// seeds or sealed values, which tests reveal with it.
let testSecretKey = SecretKey(hex: String(repeating: "5a", count: 32))!

/// The participant credential a test names `name` (tests sign readable bodies with the test
/// secret: device credentials without expiry; the server accepts only credentials signed with its
/// secret). A credential that is already signed is returned as is.
func pid(_ name: String) -> String {
    let signer = ParticipantSigner(secret: participantSecret)
    // Signed by the test secret, whenever minted (a test clock may run ahead of `fixedTime`).
    if signer.check(name, now: .greatestFiniteMagnitude) != .unknown { return name }
    return Participant.isValidId(name) ? signer.sign(body: name) : name
}

/// The identity (stored participant id) the credential `pid(name)` acts as in deck `deckId`.
func identity(_ name: String, deckId: Int64) -> String {
    let signer = ParticipantSigner(secret: participantSecret)
    guard case .valid(let credential) = signer.check(pid(name), now: fixedTime),
        let identity = signer.identity(of: credential, deckId: deckId)
    else { preconditionFailure("\(name) is no test credential") }
    return identity.id
}

/// The identity `pid(name)` (or a minted credential) acts as in deck `slug`: what is stored
/// and what owners see.
func identity(_ name: String, in slug: String, _ env: TestEnv) async throws -> String {
    guard let deckId: Int64 = try await env.row("SELECT id FROM decks WHERE slug = ?", [slug])?.value(at: 0) else {
        preconditionFailure("no deck \(slug)")
    }
    return identity(name, deckId: deckId)
}

/// A fresh path for a temporary SQLite database.
func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("swipedeck-test-\(UUID().uuidString).sqlite").path
}

/// Removes the database file and its WAL companions.
func removeDatabase(at path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// What a test gets besides the client: where its database lives, and a way to read it back.
struct TestEnv: Sendable {
    /// The database location (`StoreLocation`): an SQLite path, or a PostgreSQL URL.
    let location: String
    /// Stores `openStore` opened; `withApp` closes them before dropping the database.
    let opened = StoreBag()
    /// What the app logged (requests included): `diagnosis` prints its tail.
    let logs = LogLines()

    /// What a failing wait should print: the app's last log lines and how long the concurrency
    /// pool has had to wait at worst in this run, so CI's output alone says what the server was
    /// doing and whether the pool was stalled.
    func diagnosis(lines count: Int = 30) -> String {
        logs.diagnosis(lines: count)
    }

    /// The SQLite file; only for tests that check SQLite itself (`TestDatabase.onPostgres` off).
    var dbPath: String {
        guard case .sqlite(let path)? = try? StoreLocation(location) else {
            preconditionFailure("this test reads the SQLite file; it must not run on PostgreSQL")
        }
        return path
    }

    /// A separate GRDB connection to the app's SQLite database, to check what was really stored.
    func queue() throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(5)
        return try DatabaseQueue(path: dbPath, configuration: config)
    }

    /// A second store on the app's database (a second server, as far as storage goes).
    func openStore() async throws -> any Store {
        let store = try await SwipedeckServer.openStore(location)
        opened.stores.withLock { $0.append(store) }
        return store
    }

    /// Closes what `openStore` opened.
    func closeStores() async {
        for store in opened.stores.withLock({ $0 }) { await store.close() }
    }

    /// The rows of `sql` (SQLite `?` placeholders; written as `$1`, `$2` … for PostgreSQL).
    func rows(_ sql: String, _ arguments: [any TestValue] = []) async throws -> [TestRow] {
        switch try StoreLocation(location) {
        case .sqlite:
            let args = StatementArguments(arguments.map { ($0 as any DatabaseValueConvertible).databaseValue })
            return try await queue().read { db in
                try Row.fetchAll(db, sql: sql, arguments: args).map(TestRow.init(sqlite:))
            }
        case .postgres(let place):
            var text = ""
            var n = 0
            for ch in sql {
                if ch == "?" {
                    n += 1
                    text += "$\(n)"
                } else {
                    text.append(ch)
                }
            }
            var bindings = PostgresBindings()
            for value in arguments { bindings.append(value) }
            let query = PostgresQuery(unsafeSQL: text, binds: bindings)
            return try await TestDatabase.connect(place) { connection in
                try await connection.query(query, logger: TestDatabase.logger).collect().map(TestRow.init(postgres:))
            }
        }
    }

    /// The first column of the first row as a count (-1 without a row).
    func count(_ sql: String, _ arguments: [any TestValue] = []) async throws -> Int {
        let first = try await rows(sql, arguments).first
        guard let first else { return -1 }
        return first.value(at: 0) ?? -1
    }

    func row(_ sql: String, _ arguments: [any TestValue] = []) async throws -> TestRow? {
        try await rows(sql, arguments).first
    }
}

/// Builds the app with `buildApplication` exactly as `swipedeck serve` does (temporary database,
/// admin token `t0ken`, default resource root, sample deck seeded, fixed clock) and runs `body`
/// against its router.
func withApp(
    _ configure: (inout AppConfiguration) -> Void = { _ in },
    clock: @escaping @Sendable () -> Double = { fixedTime },
    testing: TestingSetup = .router,
    metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    _ body: @Sendable (_ client: any TestClientProtocol, _ env: TestEnv) async throws -> Void
) async throws {
    let location = try await TestDatabase.fresh()
    var config = AppConfiguration()
    config.database = location
    config.adminToken = adminToken
    config.participantSecret = participantSecret
    config.secretKey = testSecretKey
    config.passwordCost = 4
    config.seedSampleDeck = true
    configure(&config)
    // PostgreSQL has no file to put uploads beside: a folder of the test's own (removed after).
    var uploads: String?
    if config.dataDirectory == nil, case .postgres? = try? StoreLocation(config.database) {
        uploads =
            FileManager.default.temporaryDirectory.appendingPathComponent("swipedeck-test-data-\(UUID().uuidString)")
            .path
        config.dataDirectory = uploads
    }
    defer { if let uploads { try? FileManager.default.removeItem(atPath: uploads) } }
    let env = TestEnv(location: config.database)
    var logger = env.logs.logger
    logger.logLevel = .info
    do {
        let app = try await buildApplication(config, logger: logger, clock: clock, metricsRegistry: metricsRegistry)
        try await app.test(testing) { client in
            do {
                try await body(client, env)
            } catch {
                throw Diagnosed(error: error, diagnosis: env.diagnosis())
            }
        }
    } catch {
        await env.closeStores()
        await TestDatabase.drop(location)
        throw error
    }
    await env.closeStores()
    await TestDatabase.drop(location)
}

/// An error a test's body threw, with what the app was doing then (`TestEnv.diagnosis`).
struct Diagnosed: Error, CustomStringConvertible {
    let error: any Error
    let diagnosis: String
    var description: String { "\(error)\n\(diagnosis)" }
}

/// Stores a test opened besides its app's, to close at its end.
final class StoreBag: Sendable {
    let stores = Mutex<[any Store]>([])
}

/// A clock tests move by hand (seconds since 1970), starting at `fixedTime`.
final class TestClock: Sendable {
    private let now = Mutex(fixedTime)

    func read() -> Double { now.withLock { $0 } }

    func advance(by seconds: Double) { now.withLock { $0 += seconds } }
}

// MARK: - Requests

let jsonType: HTTPFields = [.contentType: "application/json"]

/// The admin token as a Bearer header: reads private results.
let admin: HTTPFields = [.authorization: "Bearer \(adminToken)"]

func cookie(_ participant: String) -> HTTPFields {
    [.cookie: "sd_pid=\(pid(participant))"]
}

func merged(_ a: HTTPFields, _ b: HTTPFields) -> HTTPFields {
    var out = a
    out.append(contentsOf: b)
    return out
}

extension TestClientProtocol {
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    func postJSON(_ uri: String, _ json: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: merged(jsonType, headers), body: ByteBuffer(string: json))
    }

    func postForm(_ uri: String, _ form: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(
            uri: uri, method: .post, headers: merged([.contentType: "application/x-www-form-urlencoded"], headers),
            body: ByteBuffer(string: form))
    }

    /// `POST /api/v1/decks` with the admin token. Returns the response.
    func createDeck(_ json: String, token: String = adminToken) async throws -> TestResponse {
        try await postJSON("/api/v1/decks", json, headers: [.authorization: "Bearer \(token)"])
    }

    /// `PATCH /api/v1/decks/{slug}` with `json`, as the admin.
    func patchDeck(_ slug: String, _ json: String) async throws -> TestResponse {
        try await patchJSON("/api/v1/decks/\(slug)", json)
    }

    /// `PATCH uri` with `json`, as the admin.
    func patchJSON(_ uri: String, _ json: String) async throws -> TestResponse {
        try await execute(uri: uri, method: .patch, headers: merged(jsonType, admin), body: ByteBuffer(string: json))
    }

    /// Creates a deck and returns its card ids in deck order.
    @discardableResult
    func makeDeck(
        _ slug: String, titles: [String], profile: String = "standard", allowButtons: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Int64] {
        let cards = titles.map { ["title": $0] }
        let body = try jsonString([
            "slug": slug, "title": "Deck \(slug)", "profile": profile, "allowButtons": allowButtons, "cards": cards,
        ])
        let r = try await createDeck(body)
        #expect(r.status == .created, "creating deck \(slug): \(r.text)", sourceLocation: sourceLocation)
        return try await cardIds(slug)
    }

    /// The deck's card ids in deck order (through the paged cards API, as a participant who has
    /// swiped nothing).
    func cardIds(_ slug: String) async throws -> [Int64] {
        var ids: [Int64] = []
        var cursor = -1
        while true {
            let r = try await get(
                "/api/v1/decks/\(slug)/cards?limit=100&cursor=\(cursor)&participant=\(pid("nobody-yet"))")
            let j = try r.json()
            ids += j["cards"].array.compactMap { $0["id"].int.map(Int64.init) }
            guard let next = j["nextCursor"].string, let c = Int(next) else { break }
            cursor = c
        }
        return ids
    }

    /// `POST /api/v1/decks/{deck}/swipes`.
    func swipe(
        _ slug: String, card: Int64, direction: String, input: String? = "drag", trace: Trace? = rightDrag(),
        participant: String? = "alice", key: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        let body = try swipeBody(card: card, direction: direction, input: input, trace: trace, participant: participant)
        var h = headers
        if let key { h[.init("Idempotency-Key")!] = key }
        return try await postJSON("/api/v1/decks/\(slug)/swipes", body, headers: h)
    }
}

func swipeBody(
    card: Int64, direction: String, input: String? = "drag", trace: Trace? = rightDrag(),
    participant: String? = "alice", decisionMs: Double? = nil, key: String? = nil
) throws -> String {
    let r = SwipeRequest(
        card: card, direction: direction, input: input, trace: trace, participant: participant.map(pid),
        decisionMs: decisionMs, idempotencyKey: key)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(r), as: UTF8.self)
}

func jsonString(_ object: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

// MARK: - Responses

extension TestResponse {
    var text: String { String(buffer: body) }

    func json() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    var contentType: String { headers[.contentType] ?? "" }
}

/// Checks an API error: its status, a JSON content type, and a body that is exactly
/// `{"error":{"code":…,"message":…}}` with the expected code and a non-empty message.
func expectAPIError(
    _ r: TestResponse, _ status: HTTPResponse.Status, _ code: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(r.status == status, "status \(r.status.code), body \(r.text)", sourceLocation: sourceLocation)
    #expect(
        r.contentType.hasPrefix("application/json"), "content type \(r.contentType)", sourceLocation: sourceLocation)
    guard let j = try? r.json() else {
        Issue.record("not JSON: \(r.text)", sourceLocation: sourceLocation)
        return
    }
    #expect(j.object.map { Array($0.keys) } == ["error"], "keys of \(r.text)", sourceLocation: sourceLocation)
    #expect(
        Set(j["error"].object?.keys.map { $0 } ?? []) == ["code", "message"], "error keys of \(r.text)",
        sourceLocation: sourceLocation)
    #expect(j["error"]["code"].string == code, "code in \(r.text)", sourceLocation: sourceLocation)
    #expect(!(j["error"]["message"].string ?? "").isEmpty, "message in \(r.text)", sourceLocation: sourceLocation)
}

/// The content of `<script … id="{id}">…</script>` in an HTML page.
func scriptContent(_ html: String, id: String) -> String? {
    guard let open = html.range(of: "id=\"\(id)\">") else { return nil }
    guard let close = html.range(of: "</script>", range: open.upperBound..<html.endIndex) else { return nil }
    return String(html[open.upperBound..<close.lowerBound])
}

/// Minimal JSON reader for assertions.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue {
        if case .object(let o) = self { return o[key] ?? .null }
        return .null
    }

    subscript(index: Int) -> JSONValue {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return .null
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var double: Double? { if case .number(let d) = self { return d } else { return nil } }
    var int: Int? { double.map { Int($0) } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var array: [JSONValue] { if case .array(let a) = self { return a } else { return [] } }
    var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
    var isNull: Bool { self == .null }
}

// MARK: - Traces (standard profile, card 400 × 600 in a 400 × 800 viewport)

/// A trace from explicit samples on the square geometry.
func trace(_ t: [Double], _ x: [Double], _ y: [Double], w: Double = 400, h: Double = 600) -> Trace {
    Trace(t: t, x: x, y: y, w: w, h: h, vw: 400, vh: 800, gx: w / 2, gy: h / 2)
}

/// A human-enough drag: a ramp to (`dx`, 0) in 20 steps of 16 ms, then 7 still samples (the
/// release velocity is 0, so the decision is by distance: |dx| / 400 against 0.35). Not suspect:
/// the speed is not constant.
func drag(dx: Double) -> Trace {
    var t: [Double] = []
    var x: [Double] = []
    var y: [Double] = []
    for i in 1...20 {
        t.append(16 * Double(i))
        x.append(dx * Double(i) / 20)
        y.append(0)
    }
    for i in 1...7 {
        t.append(320 + 16 * Double(i))
        x.append(dx)
        y.append(0)
    }
    return trace(t, x, y)
}

/// Thrown right (200 px of a 400 px card).
func rightDrag() -> Trace { drag(dx: 200) }
/// Thrown left.
func leftDrag() -> Trace { drag(dx: -200) }
/// Springs back (20 px, slowly).
func springBack() -> Trace { drag(dx: 20) }

/// A machine-like throw to the right: constant 16 ms intervals, constant speed, a perfect line.
/// Valid, but flagged suspect.
func machineDrag() -> Trace {
    let t = (1...20).map { 16 * Double($0) }
    return trace(t, t.map { $0 * 0.75 }, t.map { _ in 0 })
}

/// Keeps every log line's level and text, for the tests that check a fault is logged.
final class LogLines: Sendable {
    let lines = Mutex<[(Logger.Level, String)]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(sink: self) }
    }

    func errors(containing text: String) -> [String] {
        lines.withLock { $0.filter { $0.0 == .error && $0.1.contains(text) }.map(\.1) }
    }

    /// The last `count` lines, with the pool watchdog's worst wait: for a failure's message.
    func diagnosis(lines count: Int = 30) -> String {
        let tail = lines.withLock { $0.suffix(count).map { "  [\($0.0)] \($0.1)" } }
        let pool = PoolWatchdog.shared.map { String(format: "%.1f s", $0.worstDelay) } ?? "not watched"
        return "The log's last \(tail.count) lines:\n" + tail.joined(separator: "\n")
            + "\nThe concurrency pool's longest wait so far: \(pool)."
    }

    struct Handler: LogHandler {
        let sink: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let fields = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let pairs = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let text = "\(event.message) " + pairs.joined(separator: " ")
            sink.lines.withLock { $0.append((event.level, text)) }
        }
    }
}

/// Keeps every notice posted to it, for the tests that check what the app noticed.
final class RecordedNotices: DeckNoticeSink {
    let notices = Mutex<[DeckNotice]>([])

    func post(_ notices: [DeckNotice]) async {
        self.notices.withLock { $0.append(contentsOf: notices) }
    }

    /// The notices of `kind`, oldest first.
    func of(_ kind: DeckNoticeKind) -> [DeckNotice] {
        notices.withLock { $0.filter { $0.kind == kind } }
    }
}
