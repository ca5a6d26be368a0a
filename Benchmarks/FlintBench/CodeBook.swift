/// Reads pending codes in bulk for the real scenario. Clients ask for the codes of the numbers they just sent to;
/// every client waiting at the same moment is served by one `GET …/verificationCodes`, so the listing (which the
/// server builds from all pending codes) is fetched far less often than once per sign-in.
actor CodeBook {
    struct Stats: Sendable {
        var lookups = 0
        var totalNanos: Int64 = 0
        var entries = 0
    }

    private struct Waiter {
        var missing: Set<String>
        var found: [String: String]
        var rounds: Int
        let continuation: CheckedContinuation<[String: String], Never>
    }

    /// Lookups a waiter sits through before it gets what was found (the rest count as errors).
    static let maxRounds = 3

    private let api: FlintAPI
    private var waiters: [Int: Waiter] = [:]
    private var nextID = 0
    private var pumping = false
    private(set) var stats = Stats()

    init(api: FlintAPI) { self.api = api }

    /// The codes of `numbers` (whose sends have completed), number → code; numbers without a listed code are absent.
    func codes(for numbers: [String]) async -> [String: String] {
        await withCheckedContinuation { continuation in
            let id = nextID
            nextID += 1
            waiters[id] = Waiter(missing: Set(numbers), found: [:], rounds: 0, continuation: continuation)
            if !pumping {
                pumping = true
                Task { await self.pump() }
            }
        }
    }

    /// Fetches while anyone waits. A fetch serves every waiter; only waiters registered before it started are
    /// charged a round (a code sent before the fetch began is certain to be in it).
    private func pump() async {
        let clock = ContinuousClock()
        while !waiters.isEmpty {
            let charged = Set(waiters.keys)
            let start = clock.now
            var listing: [String: String] = [:]
            if let (reply, map) = try? await api.pendingCodes(), reply.ok { listing = map }
            stats.lookups += 1
            stats.totalNanos += (clock.now - start).nanoseconds
            stats.entries += listing.count
            for id in Array(waiters.keys) {
                guard var waiter = waiters[id] else { continue }
                for number in waiter.missing {
                    if let code = listing[number] {
                        waiter.found[number] = code
                        waiter.missing.remove(number)
                    }
                }
                if charged.contains(id) { waiter.rounds += 1 }
                if waiter.missing.isEmpty || waiter.rounds >= Self.maxRounds {
                    waiters[id] = nil
                    waiter.continuation.resume(returning: waiter.found)
                } else {
                    waiters[id] = waiter
                }
            }
        }
        pumping = false
    }
}
