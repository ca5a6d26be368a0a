import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintStore

/// What the benchmark's three scenarios send to PostgreSQL per operation, counted in the store's executor
/// (``PostgresStatementLog``): every statement is one round trip, `BEGIN` and `COMMIT` included. Deterministic, where
/// the benchmark's throughput is not on a shared machine (issue 35); BENCHMARKS.md records the counts.
@Suite(
    "PostgreSQL round trips per sign-in", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"] != nil, "no PostgreSQL test server"))
struct PostgresRoundTripsTests {
    /// One operation's statements, in the order sent.
    struct Operation: CustomStringConvertible {
        let name: String
        let entries: [PostgresStatementLog.Entry]

        var transactions: Int { entries.filter { $0.sql == "BEGIN" }.count }
        var commits: Int { entries.filter { $0.sql == "COMMIT" }.count }
        /// Statements but `BEGIN`, `COMMIT` and `ROLLBACK` that run unnamed: parsed and planned at every run.
        var unnamed: [PostgresStatementLog.Entry] { entries.filter { $0.name == nil && !["BEGIN", "COMMIT", "ROLLBACK"].contains($0.sql) } }

        var description: String {
            "\(name): \(entries.count) round trips, \(transactions) BEGIN, \(commits) COMMIT, \(unnamed.count) unnamed\n"
                + entries.map { "    \($0)" }.joined(separator: "\n")
        }
    }

    /// Runs `body` with `log` recording its statements, and takes them.
    static func recording(_ name: String, in log: PostgresStatementLog, _ body: () async throws -> Void) async throws -> Operation {
        try await PostgresStatementLog.$current.withValue(log) { try await body() }
        return Operation(name: name, entries: log.take())
    }

    @Test("a real-number sign-in, a fictional one and a refresh: round trips within bounds, their statements prepared")
    func roundTrips() async throws {
        let location = try await StoreEngine.postgres.freshLocation()
        let fictional = "+16505553434"
        let log = PostgresStatementLog()
        try await StoreEngine.postgres.serve(location) { api in
            try await api.setTestNumbers([fictional: "123456"])
            // Warm-up, recorded so that a statement's first run on a connection is told apart (`prepares`) below.
            let warmUp = try await Self.recording("warm-up", in: log) {
                for round in 0..<3 {
                    _ = try API.signedIn(try await api.verify(try await api.sendCode(fictional), code: "123456"))
                    let signedIn = try await api.signIn("+1212555\(String(format: "%04d", 1000 + round))")
                    let refreshed = try await api.refresh(signedIn.refreshToken)
                    #expect(refreshed.status == .ok)
                }
            }
            #expect(!warmUp.entries.isEmpty, "the store's statements are recorded")
            let number = "+12125552000"
            var session = ""
            var code = ""
            var refreshToken = ""
            let operations = [
                try await Self.recording("real-number sendVerificationCode", in: log) { session = try await api.sendCode(number) },
                try await Self.recording("the code lookup (dev helper; the benchmark's, not a client's)", in: log) {
                    code = try await api.pendingCode(for: number)
                },
                try await Self.recording("real-number signInWithPhoneNumber, new account", in: log) {
                    refreshToken = try API.signedIn(try await api.verify(session, code: code)).refreshToken
                },
                try await Self.recording("fictional sendVerificationCode", in: log) { session = try await api.sendCode(fictional) },
                try await Self.recording("fictional signInWithPhoneNumber, existing account", in: log) {
                    _ = try API.signedIn(try await api.verify(session, code: "123456"))
                },
                try await Self.recording("refresh", in: log) {
                    let refreshed = try await api.refresh(refreshToken)
                    #expect(refreshed.status == .ok)
                },
            ]
            for operation in operations { print(operation) }
            let bounds = [
                "real-number sendVerificationCode": 2, "real-number signInWithPhoneNumber, new account": 4,
                "fictional sendVerificationCode": 0, "fictional signInWithPhoneNumber, existing account": 2, "refresh": 1,
            ]
            for operation in operations {
                guard let bound = bounds[operation.name] else { continue }
                #expect(operation.entries.count <= bound, "\(operation)")
                #expect(operation.transactions <= 1 && operation.commits == operation.transactions, "\(operation)")
                #expect(operation.unnamed.isEmpty, "\(operation)")
            }
        }
    }
}
