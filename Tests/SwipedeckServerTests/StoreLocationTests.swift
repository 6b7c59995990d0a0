import Testing

@testable import SwipedeckServer

/// `--database` values: which engine, where, and a sentence for what cannot be used.
@Suite("Store locations")
struct StoreLocationTests {
    @Test("paths and sqlite: URLs are SQLite; postgres:// and postgresql:// are PostgreSQL with their parts")
    func parses() throws {
        #expect(try StoreLocation("swipedeck.sqlite") == .sqlite(path: "swipedeck.sqlite"))
        #expect(try StoreLocation("/srv/d.sqlite") == .sqlite(path: "/srv/d.sqlite"))
        #expect(try StoreLocation("sqlite:data/d.sqlite") == .sqlite(path: "data/d.sqlite"))
        #expect(try StoreLocation("sqlite:///abs/d.sqlite") == .sqlite(path: "/abs/d.sqlite"))
        guard
            case .postgres(let p) = try StoreLocation(
                "postgres://ada:s%40cret@db.internal:6543/decks?sslmode=require&pool=32")
        else {
            Issue.record("not PostgreSQL")
            return
        }
        #expect(p.user == "ada" && p.password == "s@cret" && p.host == "db.internal" && p.port == 6543)
        #expect(p.database == "decks" && p.sslMode == "require" && p.poolSize == 32 && p.socketDirectory == nil)
        #expect(p.redacted == "postgres://ada@db.internal:6543/decks")
        guard case .postgres(let q) = try StoreLocation("postgresql://ada@/decks?host=/run/postgresql") else {
            Issue.record("not PostgreSQL")
            return
        }
        #expect(q.socketDirectory == "/run/postgresql" && q.port == 5432 && q.sslMode == "prefer" && q.poolSize == 16)
    }

    @Test(
        "what cannot be used is refused with a sentence naming the rule",
        arguments: [
            ("mysql://x/y", "unknown engine"),
            ("postgres://u@h:5432/", "names no database"),
            ("postgres://u@h/db?sslmode=verify", "sslmode must be"),
            ("postgres://u@h/db?pool=0", "pool must be"),
            ("sqlite:", "path is empty"),
        ])
    func refuses(_ text: String, _ words: String) {
        #expect(throws: StoreLocationError.self) { try StoreLocation(text) }
        do {
            _ = try StoreLocation(text)
        } catch let error as StoreLocationError {
            #expect(error.description.contains(words), "\(error.description)")
            #expect(error.description.hasSuffix("."))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
