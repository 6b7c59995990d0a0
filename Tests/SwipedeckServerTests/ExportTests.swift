import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The per-swipe exports `GET /api/v1/decks/{deck}/swipes.csv` and `…/swipes.jsonl`.
@Suite("Per-swipe exports")
struct ExportTests {
    static let columns = [
        "swipe_id", "participant", "card_id", "card_revision", "direction", "decision", "input", "kind", "suspect",
        "suspect_reason",
        "decision_ms", "velocity_x", "velocity_y", "duration_ms", "created_at", "undone_at",
    ]

    /// Splits one CSV record (RFC 4180 quoting) into its cells.
    static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var characters = Array(line)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"", characters.first == "\"" {
                    cell.append("\"")
                    characters.removeFirst()
                } else if c == "\"" {
                    quoted = false
                } else {
                    cell.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(c)
            }
        }
        return cells + [cell]
    }

    /// The CSV export as records keyed by column name, header checked.
    static func csvRecords(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: String]] {
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first.map(cells) == columns, sourceLocation: sourceLocation)
        return lines.dropFirst().map { line in
            let values = cells(line)
            #expect(values.count == columns.count, "\(line)", sourceLocation: sourceLocation)
            return Dictionary(uniqueKeysWithValues: zip(columns, values))
        }
    }

    @Test("every swipe once with its columns: kind, revision, suspect reason, velocity, undo; owner only", .sqliteOnly)
    func columnsAndAccess() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("x", titles: ["a", "b", "c"])
            #expect(try await client.swipe("x", card: ids[0], direction: "right", participant: "e1").status == .created)
            #expect(
                try await client.swipe(
                    "x", card: ids[1], direction: "left", input: "button", trace: nil, participant: "e1"
                ).status == .created)
            let undone = try await client.swipe("x", card: ids[2], direction: "right", participant: "e2")
            let undoneId = try #require(try undone.json()["swipe"]["id"].string)
            _ = try await client.execute(uri: "/api/v1/swipes/\(undoneId)?participant=\(pid("e2"))", method: .delete)
            // A suspect drag as the writer stores one (a machine-like trace).
            try await env.queue().write { db in
                try db.execute(sql: "INSERT INTO participants (id, kind, createdAt) VALUES ('bot', 'api', 0)")
                try db.execute(
                    sql: """
                        INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, suspect, requestHash, createdAt,
                                            cardRevision, suspectReason)
                        SELECT 'sus', deckId, id, 'bot', 'left', 'drag', '{}', 1, 'h', ?, 1, 'machine_like_trace' FROM cards WHERE id = ?
                        """, arguments: [fixedTime, ids[2]])
            }

            for path in ["/api/v1/decks/x/swipes.csv", "/api/v1/decks/x/swipes.jsonl"] {
                expectAPIError(try await client.get(path), .unauthorized, "unauthorized")
            }
            expectAPIError(
                try await client.get("/api/v1/decks/nope/swipes.csv", headers: admin), .notFound, "not_found")

            let csv = try await client.get("/api/v1/decks/x/swipes.csv", headers: admin)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.headers[.contentDisposition] == #"attachment; filename="x-swipes.csv""#)
            let records = Self.csvRecords(csv.text)
            #expect(records.count == 4)
            #expect(Set(records.compactMap { $0["swipe_id"] }).count == 4)
            let drag = try #require(records.first { $0["card_id"] == String(ids[0]) })
            #expect(drag["participant"] == (try await identity("e1", in: "x", env)))
            #expect(drag["card_revision"] == "1")
            #expect(drag["direction"] == "right")
            #expect(drag["kind"] == "drag")
            #expect(drag["suspect"] == "0")
            #expect(Double(drag["velocity_x"] ?? "") != nil, "a drag has a release velocity")
            // ISO 8601 in UTC, not seconds since 1970 (the JSON Lines keep those).
            #expect(drag["created_at"] == SwipeExport.time(fixedTime))
            #expect(drag["created_at"]?.hasSuffix("Z") == true && drag["created_at"]?.contains("T") == true)
            #expect(drag["undone_at"] == "")
            let button = try #require(records.first { $0["card_id"] == String(ids[1]) })
            #expect(button["input"] == "button")
            #expect(button["kind"] == "button")
            #expect(button["velocity_x"] == "")
            #expect(button["suspect_reason"] == "")
            let suspect = try #require(records.first { $0["swipe_id"] == "sus" })
            #expect(suspect["kind"] == "suspectDrag")
            #expect(suspect["suspect"] == "1")
            #expect(suspect["suspect_reason"] == "machine_like_trace")
            #expect(records.first { $0["swipe_id"] == undoneId }?["undone_at"] == SwipeExport.time(fixedTime))

            let jsonl = try await client.get("/api/v1/decks/x/swipes.jsonl", headers: admin)
            #expect(jsonl.headers[.contentType] == "application/x-ndjson")
            #expect(jsonl.headers[.contentDisposition] == #"attachment; filename="x-swipes.jsonl""#)
            #expect(jsonl.text.hasSuffix("\n"))
            let objects = try jsonl.text.split(separator: "\n").map {
                try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
            }
            #expect(objects.count == 4)
            #expect(Set(objects.compactMap { $0["id"].string }) == Set(records.compactMap { $0["swipe_id"] }))
            let flagged = try #require(objects.first { $0["id"].string == "sus" })
            #expect(flagged["kind"].string == "suspectDrag")
            #expect(flagged["suspect"].bool == true)
            #expect(flagged["suspectReason"].string == "machine_like_trace")
            let pressed = try #require(objects.first { $0["card"].int == Int(ids[1]) })
            #expect(pressed["cardRevision"].int == 1)
            #expect(pressed["participant"].string == (try await identity("e1", in: "x", env)))
            #expect(pressed["input"].string == "button")
            #expect(objects.first { $0["id"].string == undoneId }?["undoneAt"].double == fixedTime)
        }
    }

    @Test("public results publish the ranking, not every swipe: the per-swipe exports stay the owner's")
    func publicResults() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("pub", titles: ["a"])
            #expect(
                try await client.swipe("pub", card: ids[0], direction: "right", participant: "p1").status == .created)
            expectAPIError(try await client.get("/api/v1/decks/pub/swipes.jsonl"), .unauthorized, "unauthorized")
            let patch = try await client.execute(
                uri: "/api/v1/decks/pub", method: .patch, headers: merged(admin, jsonType),
                body: ByteBuffer(string: #"{"resultsPublic":true}"#))
            #expect(patch.status == .ok, "\(patch.text)")
            #expect(try await client.get("/api/v1/decks/pub/results").status == .ok)
            expectAPIError(try await client.get("/api/v1/decks/pub/swipes.jsonl"), .unauthorized, "unauthorized")
            expectAPIError(try await client.get("/api/v1/decks/pub/swipes.csv"), .unauthorized, "unauthorized")
            #expect(
                !(try await client.get("/d/pub/results").text.contains("swipes.csv")),
                "the public page links no per-swipe export")
            let r = try await client.get("/api/v1/decks/pub/swipes.jsonl", headers: admin)
            #expect(r.status == .ok)
            #expect(r.text.split(separator: "\n").count == 1)
        }
    }

    @Test("cells that a spreadsheet would run as formulas are quoted and defused")
    func formulaGuard() {
        var s = Swipe(
            id: "x", deckId: 1, cardId: 1, participantId: "=cmd|' /C calc'!A0", direction: .left, input: .api,
            trace: nil,
            velocityX: -0.5, velocityY: nil, durationMs: nil, decisionMs: nil, suspect: true, requestHash: "h",
            createdAt: fixedTime,
            undoneAt: nil)
        s.suspectReason = "+1, \"odd\""
        let line = SwipeExport.csvLine(
            s, names: DirectionNames(left: "NOPE", right: "LIKE", up: "SUPER", down: "LATER"))
        #expect(line.hasSuffix("\r\n"))
        let fields = Self.cells(String(line.dropLast()))  // "\r\n" is one Character
        #expect(fields.count == Self.columns.count)
        #expect(fields[1] == "'=cmd|' /C calc'!A0")
        #expect(fields[5] == "NOPE", "the decision in the deck's own words")
        #expect(fields[9] == "'+1, \"odd\"")
        #expect(fields[11] == "-0.5", "numbers stay numbers")
    }

    @Test(
        "many pages: 12,345 swipes seeded in the deck (and others around it) come out once each, in order", .sqliteOnly)
    func paging() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("big", titles: ["a", "b", "c"])
            let other = try await client.makeDeck("other", titles: ["z"])
            let count = 12_345  // more than two pages of ExportsController.pageSize
            try await env.queue().write { db in
                let deckId = try Int64.fetchOne(db, sql: "SELECT id FROM decks WHERE slug = 'big'")!
                let otherId = try Int64.fetchOne(db, sql: "SELECT id FROM decks WHERE slug = 'other'")!
                let insert = try db.makeStatement(
                    sql: """
                        INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, suspect, requestHash, createdAt, cardRevision)
                        VALUES (?, ?, ?, ?, 'right', 'api', 0, 'h', ?, 1)
                        """)
                let participant = try db.makeStatement(
                    sql: "INSERT OR IGNORE INTO participants (id, kind, createdAt) VALUES (?, 'api', 0)")
                for i in 0..<count {
                    try participant.execute(arguments: ["p\(i / 3)"])
                    try insert.execute(arguments: ["s\(i)", deckId, ids[i % 3], "p\(i / 3)", fixedTime + Double(i)])
                    if i % 1000 == 0 {
                        try insert.execute(arguments: ["o\(i)", otherId, other[0], "p\(i / 3)", fixedTime])
                    }
                }
            }
            #expect(ExportsController.pageSize < count / 2)
            let csv = Self.csvRecords(try await client.get("/api/v1/decks/big/swipes.csv", headers: admin).text)
            #expect(csv.map { $0["swipe_id"] ?? "" } == (0..<count).map { "s\($0)" })
            let jsonl = try await client.get("/api/v1/decks/big/swipes.jsonl", headers: admin).text.split(
                separator: "\n")
            #expect(jsonl.count == count)
            #expect(jsonl.last?.contains(#""id":"s12344""#) == true)
        }
    }
}
