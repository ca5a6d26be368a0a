import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// What a client was told while the node was under load: every sign-in answered 200, with its account and session.
/// The sessions the load was answered with.
private typealias Acknowledged = EventLog<(localID: String, refreshToken: String)>

/// `kill -9` in the middle of sustained sign-ins: whatever a client was told is durable, and nothing is half written.
@Suite("kill -9 under sign-in load, on SQLite and PostgreSQL", .serialized)
struct CrashRecoveryTests {
    /// The fictional numbers the load signs in with (their code is 123456), beside password sign-ups.
    static let numbers = (0..<10).map { "+1650555\(String(format: "%04d", 7000 + $0))" }

    @Test("SQLite: every acknowledged account and refresh token survives a SIGKILL, with the same published keys")
    func sqlite() async throws {
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await killUnderLoad(data: data, arguments: []) { query in
            try await runQuery(["/usr/bin/env", "sqlite3", data + "/flint.sqlite", query])
        }
    }

    @Test(
        "PostgreSQL: every acknowledged account and refresh token survives a SIGKILL, with the same published keys",
        .enabled(if: postgresURL != nil))
    func postgres() async throws {
        let url = try await TwoNodeTests().freshDatabase(on: try #require(postgresURL))
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await killUnderLoad(data: data, arguments: ["--database", url, "--dev"]) { query in
            try await runQuery(["/usr/bin/env", "psql", url, "-qtAc", query])
        }
    }

    /// Starts a node, signs in from 16 clients at once, kills the node with SIGKILL once 48 sign-ins were answered,
    /// checks the rows as the kill left them with `query` (one number per statement), restarts on the same data and
    /// checks every acknowledged session.
    private func killUnderLoad(data: String, arguments: [String], query: (String) async throws -> Int) async throws {
        let client = HTTPClient.shared
        let config = data + "-config.json"
        let numbers = Dictionary(uniqueKeysWithValues: Self.numbers.map { ($0, "123456") })
        try JSONSerialization.data(withJSONObject: ["signIn": ["phoneNumber": ["enabled": true, "testPhoneNumbers": numbers]]])
            .write(to: URL(fileURLWithPath: config))
        defer { try? FileManager.default.removeItem(atPath: config) }
        let flags = arguments + ["--config", config, "--password-hash-cost", "10", "--new-accounts-per-ip", "0"]
        let node = try await FlintProcess(dataDirectory: data, extraArguments: flags)
        let (_, jwksBefore) = try await getJSON(client, node.base + "/.well-known/jwks.json")
        let acknowledged = Acknowledged()
        let base = node.base
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask { await signInUntilRefused(base, worker: worker, into: acknowledged) }
                }
            }
        }
        // Kill once the load is well under way (on a loaded machine — CI runs suites in parallel — the first answers
        // can take many seconds), mid-stream: the 16 clients send without pause, so requests are in flight whenever
        // the 48th answer arrives.
        _ = await acknowledged.wait(for: 48, limit: .seconds(120))
        await node.kill()
        await load.value
        let sessions = acknowledged.events
        #expect(sessions.count >= 16, "the load got answers before the kill: \(sessions.count)")

        // As the kill left the store: one sign-in, one transaction with its account, its refresh token and its event.
        #expect(try await query("SELECT COUNT(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.local_id = u.local_id)") == 0)
        let tokens = try await query("SELECT COUNT(*) FROM refresh_tokens")
        #expect(tokens >= sessions.count)
        #expect(try await query("SELECT COUNT(*) FROM audit_events WHERE kind = 'SIGN_IN'") == tokens, "every stored session has its SIGN_IN event")
        // The account index (filled after commit) holds every event up to its progress; the rest are listed from the log.
        let unindexed = """
            SELECT COUNT(*) FROM audit_events e WHERE e.uid IS NOT NULL AND e.id <= (SELECT indexed_through FROM audit_uid_progress)
            AND NOT EXISTS (SELECT 1 FROM audit_uid_events x WHERE x.id = e.id)
            """
        #expect(try await query(unindexed) == 0, "no event below the account index's progress is missing from it")
        #expect(try await query("SELECT COUNT(*) FROM code_sessions") == 0, "fictional numbers leave no code session")

        let again = try await FlintProcess(dataDirectory: data, extraArguments: flags)
        defer { again.terminate() }
        let restarted = again.base
        let (_, jwksAfter) = try await getJSON(client, restarted + "/.well-known/jwks.json")
        #expect(NSDictionary(dictionary: jwksAfter) == NSDictionary(dictionary: jwksBefore), "the same keys are published after the restart")
        let lost = try await withThrowingTaskGroup(of: String?.self) { group in
            for (index, session) in sessions.enumerated() {
                if index >= 16 { _ = try await group.next() }
                group.addTask {
                    let (status, body) = try await postJSON(
                        client, restarted + "/securetoken.googleapis.com/v1/token?key=k",
                        ["grant_type": "refresh_token", "refresh_token": session.refreshToken])
                    return status == 200 && body["user_id"] as? String == session.localID ? nil : session.localID
                }
            }
            return try await group.reduce(into: [String]()) { if let uid = $1 { $0.append(uid) } }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(sessions.count) acknowledged sessions do not refresh after the restart")
    }
}

/// Signs in over and over (password sign-ups, and fictional-number phone sign-ins on odd workers) until the node
/// stops answering; records every 200.
private func signInUntilRefused(_ base: String, worker: Int, into acknowledged: Acknowledged) async {
    let client = HTTPClient.shared
    let v1 = base + "/identitytoolkit.googleapis.com/v1"
    var round = 0
    while true {
        round += 1
        do {
            let answer: (Int, [String: Any])
            if worker % 2 == 1 {
                let number = CrashRecoveryTests.numbers[(worker + round) % CrashRecoveryTests.numbers.count]
                let (_, sent) = try await post(client, v1 + "/accounts:sendVerificationCode?key=k", ["phoneNumber": number])
                guard let sessionInfo = sent["sessionInfo"] as? String else { return }
                answer = try await post(client, v1 + "/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": sessionInfo, "code": "123456"])
            } else {
                answer = try await post(
                    client, v1 + "/accounts:signUp?key=k", ["email": "load-\(worker)-\(round)@example.com", "password": "password-\(round)"])
            }
            guard answer.0 == 200, let uid = answer.1["localId"] as? String, let token = answer.1["refreshToken"] as? String else { return }
            acknowledged.record((uid, token))
        } catch {
            return
        }
    }
}

/// POSTs JSON with a short timeout: a request the kill cut off fails at once instead of holding the test.
private func post(_ client: HTTPClient, _ url: String, _ body: [String: String]) async throws -> (Int, [String: Any]) {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    let response = try await client.execute(request, timeout: .seconds(5))
    let buffer = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:])
}

/// Runs a database client and reads the one number it prints.
private func runQuery(_ command: [String]) async throws -> Int {
    let outcome = try await ChildProcess.run(command[0], Array(command.dropFirst()), mergingError: false)
    let text = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    guard outcome.status == 0, let value = Int(text) else { throw FlintProcessError(message: "\(command.last ?? ""): \(text)") }
    return value
}
