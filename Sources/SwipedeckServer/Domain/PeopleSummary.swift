/// Who a deck's results count, and who they leave out or only flag, and why, in plain words (the
/// owner's `people` in the results JSON and the results page). No cap: every person is in one
/// of the numbers, and every reason is a group with its count.
public struct PeopleSummary: Sendable, Hashable, Encodable {
    /// What a group's people are to the results.
    public enum Status: String, Sendable, Hashable, Encodable {
        /// Left out of the results (their swipes count nowhere) until the owner includes them.
        case excluded
        /// Counted, and shown to the owner: evidence too weak to leave anybody out, or swipes of
        /// theirs that did not count.
        case flagged
    }

    /// One reason and how many people it applies to.
    public struct Group: Sendable, Hashable, Encodable {
        public var status: Status
        /// In plain words.
        public var reason: String
        public var people: Int
    }

    /// People with a counted swipe (`ResultsReport.participants`).
    public var counted: Int
    /// People flagged and not excluded (each once, whatever their reasons).
    public var flagged: Int
    /// People excluded (an exclusion in force).
    public var excluded: Int
    /// Every reason, the exclusions first, each group largest first. A person may be in several
    /// flagged groups.
    public var groups: [Group]

    /// What the stores count for a summary (`TrustStore.trustCounts`).
    public struct Counts: Sendable, Hashable {
        /// Exclusions in force by their stored reason (the owner's own may be empty).
        public var excludedByReason: [String: Int]
        /// People not excluded with live suspect swipes, by suspect reason (raw value).
        public var suspectByReason: [String: Int]
        /// Those people.
        public var suspectPeople: Set<String>

        public init(excludedByReason: [String: Int], suspectByReason: [String: Int], suspectPeople: Set<String>) {
            self.excludedByReason = excludedByReason
            self.suspectByReason = suspectByReason
            self.suspectPeople = suspectPeople
        }
    }

    /// The summary of `counts`, the groups a lockstep check found (`clusters`; those that
    /// exclude are already in the exclusions) and the people excluded now (`excludedNow`).
    public init(counted: Int, counts: Counts, clusters: [LockstepClusters.Cluster], excludedNow: Set<String>) {
        self.counted = counted
        var groups: [Group] = counts.excludedByReason.map {
            Group(status: .excluded, reason: Self.words(exclusion: $0.key), people: $0.value)
        }
        .sorted { ($0.people, $1.reason) > ($1.people, $0.reason) }
        excluded = counts.excludedByReason.values.reduce(0, +)
        var flaggedPeople = counts.suspectPeople
        var flaggedGroups: [Group] = []
        for c in clusters where !c.excludes {
            let shown = c.members.filter { !excludedNow.contains($0) }
            if shown.isEmpty { continue }
            flaggedPeople.formUnion(shown)
            flaggedGroups.append(Group(status: .flagged, reason: Self.capitalised(c.reason) + ".", people: shown.count))
        }
        for (raw, n) in counts.suspectByReason {
            flaggedGroups.append(Group(status: .flagged, reason: Self.words(suspect: raw), people: n))
        }
        groups += flaggedGroups.sorted { ($0.people, $1.reason) > ($1.people, $0.reason) }
        flagged = flaggedPeople.count
        self.groups = groups
    }

    /// An exclusion's stored reason in plain words.
    static func words(exclusion reason: String) -> String {
        if reason.hasPrefix(ClusterGuard.reasonPrefix) {
            return "Left out automatically: " + reason.dropFirst(ClusterGuard.reasonPrefix.count) + "."
        }
        switch reason {
        case "": return "Excluded by you."
        case "excluded on the results page": return "Excluded by you on the results page."
        case "excluded with its lockstep cluster on the results page":
            return "Excluded by you with their group on the results page."
        default: return capitalised(reason) + (reason.hasSuffix(".") ? "" : ".")
        }
    }

    /// A suspect reason (`SuspectReason` raw value) in plain words.
    static func words(suspect raw: String) -> String {
        switch SuspectReason(rawValue: raw) {
        case .machineLikeTrace:
            return
                "Some drags looked generated (even timing, even speed, a straight line); those swipes are not counted."
        case .buttonBurst, .dragBurst:
            return "Some decisions came three within 0.6 seconds; those swipes are not counted."
        case .buttonBeforeRead, .dragBeforeRead:
            return "Some decisions came within 0.3 seconds of opening the deck; those swipes are not counted."
        case nil: return "Some swipes were not counted (\(raw))."
        }
    }

    static func capitalised(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}

extension PeopleSummary {
    /// The deck's summary now: `counted` people, and the groups the lockstep check found.
    public static func read(deck: Deck, counted: Int, clusters: [LockstepClusters.Cluster], store: any Store)
        async throws -> PeopleSummary
    {
        let counts = try await store.trustCounts(deckId: deck.id)
        let states = try await store.exclusionStates(deckId: deck.id)
        return PeopleSummary(counted: counted, counts: counts, clusters: clusters, excludedNow: states.excluded)
    }
}
