import Foundation
import Testing

@testable import SwipePhysics

/// JSON shapes: profiles round-trip losslessly, `Classification` writes `rejection: null`, and
/// traces accept the strings JSON needs for NaN and infinities (then fail validation as malformed).
@Suite("Codable")
struct CodableTests {
    static func json(_ value: some Encodable) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(value), as: UTF8.self)
    }

    static func object(_ value: some Encodable) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value)) as! [String: Any]
    }

    @Test("every profile encodes to JSON and decodes back equal", arguments: SwipeProfile.all.map(\.name))
    func profileRoundTrip(name: String) throws {
        let p = SwipeProfile.named(name)!
        let data = try JSONEncoder().encode(p)
        let back = try JSONDecoder().decode(SwipeProfile.self, from: data)
        #expect(back == p)
        // Bit for bit, including π/10 and the non-terminating decimals.
        #expect(back.maxRotation.bitPattern == p.maxRotation.bitPattern)
        #expect(back.distanceThreshold.bitPattern == p.distanceThreshold.bitPattern)
        // Twice is the same text (keys sorted: dictionary order is not stable across encodes).
        #expect(try Self.json(back) == Self.json(p))
        // Every field is present, whether the rule uses it or not.
        let o = try Self.object(p)
        for key in [
            "name", "summary", "rule", "directions", "velocityWindowMs", "distanceThreshold", "flingVelocity",
            "minFlingDistance",
            "classicXRatio", "pressDelayMs", "pressSlopPx", "zoneInsetX", "kolodaThreshold",
            "maxRotation", "rotationByViewport", "rotateAboutGrabPoint", "overlayStart", "overlayFull", "returnSpring",
            "throwStyle", "exitDistanceFactor", "throwMinMs", "throwMaxMs", "enterMs", "tapSlopPx", "stack", "reveal",
            "springList", "limits",
        ] {
            #expect(o[key] != nil, "\(name) lacks \(key)")
        }
        // The seed's vertical zone bound decides nothing (docs/PROFILES.md), so no field carries it.
        #expect(o["zoneInsetY"] == nil)
        #expect(o["name"] as? String == name)
    }

    @Test("profile JSON uses the wire names of rules, directions and modes")
    func profileWireNames() throws {
        let o = try Self.object(SwipeProfile.eightway)
        #expect(o["rule"] as? String == "koloda")
        #expect(
            o["directions"] as? [String] == [
                "left", "right", "up", "down", "up_left", "up_right", "down_left", "down_right",
            ])
        #expect((o["stack"] as? [String: Any])?["mode"] as? String == "inset")
        #expect(try Self.object(SwipeProfile.classic)["throwStyle"] as? String == "horizontalVelocityY")
        #expect(try Self.object(SwipeProfile.springList)["directions"] as? [String] == [])
        let limits = try Self.object(SwipeProfile.standard)["limits"] as? [String: Any]
        #expect(limits?["maxSpeed"] as? Double == 20)
        #expect(limits?["pointerSlopPx"] as? Double == 2)
        #expect(limits?["maxSamples"] as? Int == 1200)
        #expect(limits?["speedWindowMs"] as? Double == 24)
    }

    @Test("a modified profile round-trips too (no field is silently defaulted)")
    func modifiedProfileRoundTrip() throws {
        var p = SwipeProfile.standard
        p.name = "custom"
        p.directions = [.up, .downLeft]
        p.distanceThreshold = 0.1 + 0.2
        p.maxRotation = .pi / 7
        p.returnSpring = SpringParameters(responseMs: 1.0 / 3, dampingRatio: 2.0 / 3)
        p.stack.alphaStep = 0.0123456789012345
        p.reveal.moveSamples = 9
        p.springList.scrollResistance = 1234.5
        p.limits.maxSpeed = 12.345678901234567
        p.limits.suspectMinSamples = 11
        let back = try JSONDecoder().decode(SwipeProfile.self, from: try JSONEncoder().encode(p))
        #expect(back == p)
        #expect(back != SwipeProfile.standard)
    }

    @Test("Classification writes rejection: null explicitly")
    func classificationNull() throws {
        let tr = rampTrace(dx: 200)
        let ok = Classification.of(tr, claimed: .right, profile: .standard)
        #expect(ok.rejection == nil)
        let text = try Self.json(ok)
        #expect(text.contains("\"rejection\":null"), "\(text)")
        #expect(text.contains("\"decision\":\"right\""))
        #expect(text.contains("\"suspect\":false"))
        let o = try Self.object(ok)
        #expect(Set(o.keys) == ["decision", "velocity", "progress", "rejection", "suspect"])
        #expect(o["rejection"] is NSNull)

        // The classify line format: same keys, in the documented order, null included.
        #expect(ok.jsonLine.hasPrefix("{\"decision\":\"right\",\"velocity\":{"))
        #expect(ok.jsonLine.hasSuffix(",\"rejection\":null,\"suspect\":false}"), "\(ok.jsonLine)")

        let bad = Classification.of(tr, claimed: .left, profile: .standard)
        #expect(try Self.json(bad).contains("\"rejection\":\"decision_mismatch\""))
        #expect(try Self.json(Classification.malformed).contains("\"rejection\":\"malformed\""))
        // And decodes back equal, null included.
        for c in [ok, bad, .malformed] {
            #expect(try JSONDecoder().decode(Classification.self, from: try JSONEncoder().encode(c)) == c)
        }
    }

    static let validTraceJSON =
        #"{"t":[0,16,32,48],"x":[0,3.5,9,20],"y":[0,-1,-2,-2],"w":320,"h":440,"vw":390,"vh":844,"gx":160,"gy":300}"#

    @Test("a trace decodes from the wire format and round-trips")
    func traceRoundTrip() throws {
        let tr = try JSONDecoder().decode(Trace.self, from: Data(Self.validTraceJSON.utf8))
        #expect(tr.t == [0, 16, 32, 48] && tr.x == [0, 3.5, 9, 20] && tr.y == [0, -1, -2, -2])
        #expect(tr.w == 320 && tr.h == 440 && tr.vw == 390 && tr.vh == 844 && tr.gx == 160 && tr.gy == 300)
        #expect(tr.ox == nil && tr.oy == nil)
        #expect(rejection(tr) == nil)
        let text = try Self.json(tr)
        #expect(!text.contains("\"ox\""), "absent optionals stay absent")
        #expect(try JSONDecoder().decode(Trace.self, from: Data(text.utf8)) == tr)
        var withOrigin = tr
        withOrigin.ox = 195.25
        withOrigin.oy = 400
        #expect(try JSONDecoder().decode(Trace.self, from: JSONEncoder().encode(withOrigin)) == withOrigin)
    }

    @Test("a trace accepts \"NaN\", \"Infinity\", \"-Infinity\"; validate then says malformed")
    func traceNonFiniteStrings() throws {
        let cases: [(String, String, (Trace) -> Bool)] = [
            (#""t":[0,16,32,48]"#, #""t":[0,"NaN",32,48]"#, { $0.t[1].isNaN }),
            (#""x":[0,3.5,9,20]"#, #""x":[0,3.5,"Infinity",20]"#, { $0.x[2] == .infinity }),
            (#""y":[0,-1,-2,-2]"#, #""y":[0,-1,-2,"-Infinity"]"#, { $0.y[3] == -.infinity }),
            (#""w":320"#, #""w":"NaN""#, { $0.w.isNaN }),
            (#""vh":844"#, #""vh":"Infinity""#, { $0.vh == .infinity }),
            (#""gy":300"#, #""gy":"-Infinity""#, { $0.gy == -.infinity }),
            (#""gy":300"#, #""gy":300,"ox":"NaN""#, { $0.ox!.isNaN }),
            (#""gy":300"#, #""gy":300,"oy":"+Infinity""#, { $0.oy == .infinity }),
        ]
        for (from, to, check) in cases {
            let text = Self.validTraceJSON.replacingOccurrences(of: from, with: to)
            #expect(text != Self.validTraceJSON)
            let tr = try JSONDecoder().decode(Trace.self, from: Data(text.utf8))
            #expect(check(tr), "\(to)")
            for p in SwipeProfile.all {
                #expect(throws: SwipeRejection.malformed) { try validate(tr, claimed: nil, profile: p) }
                #expect(throws: SwipeRejection.malformed) { try validate(tr, claimed: .right, profile: p) }
            }
            // The classify line format says so too, instead of failing to parse.
            let line = #"{"trace":"# + text + #","claimed":"right"}"#
            #expect(Classification.of(line: Array(line.utf8), profile: .standard) == .malformed)
        }
        // Other strings are not numbers.
        for bad in [#""nan""#, #""inf""#, #""12""#, #""""#, "null", "true", "[1]"] {
            let text = Self.validTraceJSON.replacingOccurrences(of: #""w":320"#, with: #""w":"# + bad)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Trace.self, from: Data(text.utf8)) }
        }
    }

    @Test("a classify line with a valid trace classifies it; an unknown claim is malformed")
    func classifyLines() {
        let line = #"{"trace":"# + Self.validTraceJSON + #","claimed":"none"}"#
        let c = Classification.of(line: Array(line.utf8), profile: .standard)
        #expect(c.rejection == nil && c.decision == Decision.none)
        let noClaim = #"{"trace":"# + Self.validTraceJSON + "}"
        #expect(Classification.of(line: Array(noClaim.utf8), profile: .standard).rejection == nil)
        let wrong = #"{"trace":"# + Self.validTraceJSON + #","claimed":"left"}"#
        #expect(Classification.of(line: Array(wrong.utf8), profile: .standard).rejection == .notAThrow)
        let unknown = #"{"trace":"# + Self.validTraceJSON + #","claimed":"sideways"}"#
        #expect(Classification.of(line: Array(unknown.utf8), profile: .standard) == .malformed)
    }
}
