import AsyncHTTPClient
import FlintTesting
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import Testing

/// The PostgreSQL server `./scripts/test` started, if any.
let postgresURL = ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"]

@Suite("two flint serve nodes on one PostgreSQL", .serialized, .enabled(if: postgresURL != nil))
struct TwoNodeTests {
    @Test("a code sent through node 1 signs in on node 2; refresh, one winner per code, and a scheduled key rotation hold across nodes")
    func sharedState() async throws {
        let client = HTTPClient.shared
        // An empty database: `flint config set` below migrates it, as a first command does in production.
        let url = try await freshDatabase(on: try #require(postgresURL), schema: .empty)
        let data1 = temporaryDataDirectory()
        let data2 = temporaryDataDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: data1)
            try? FileManager.default.removeItem(atPath: data2)
        }
        let (setStatus, setOutput) = try await runFlint([
            "config", "set", "--database", url, "signIn.phoneNumber.testPhoneNumbers", #"{"+16505550099":"123456"}"#,
        ])
        #expect(setStatus == 0, "\(setOutput)")
        let shared = ["--database", url, "--master-key-file", try newMasterKeyFile(), "--dev", "--reload-interval", "1"]
        let node1 = try await FlintProcess(dataDirectory: data1, extraArguments: shared)
        defer { node1.terminate() }
        let node2 = try await FlintProcess(dataDirectory: data2, extraArguments: shared)
        defer { node2.terminate() }
        #expect(!node1.log.contains(url), "the database password is not logged")

        // Send through node 1, sign in through node 2, refresh through node 1.
        let phone = "+16505557777"
        let (_, sent) = try await postJSON(
            client, node1.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=k", ["phoneNumber": phone])
        let sessionInfo = try #require(sent["sessionInfo"] as? String)
        let code = try await pendingCode(client, node2, phone)
        let (status, signed) = try await postJSON(
            client, node2.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=k",
            ["sessionInfo": sessionInfo, "code": code]
        )
        #expect(status == 200)
        let refreshToken = try #require(signed["refreshToken"] as? String)
        let (refreshStatus, refreshed) = try await postJSON(
            client, node1.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken]
        )
        #expect(refreshStatus == 200)
        #expect(refreshed["user_id"] as? String == signed["localId"] as? String)

        // Concurrent right answers to both nodes: exactly one wins.
        let (_, sent2) = try await postJSON(
            client, node2.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505558888"])
        let session2 = try #require(sent2["sessionInfo"] as? String)
        let code2 = try await pendingCode(client, node1, "+16505558888")
        let bases = [node1.base, node2.base]
        let wins = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<12 {
                let base = bases[i % 2]
                group.addTask {
                    let (s, _) = try await postJSON(
                        client, base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=k",
                        ["sessionInfo": session2, "code": code2]
                    )
                    return s == 200 ? 1 : 0
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wins == 1)

        // Concurrent first sign-ins of one fictional number on both nodes make one account.
        let fictionalIDs = try await withThrowingTaskGroup(of: String?.self) { group in
            for i in 0..<12 {
                let base = bases[i % 2]
                group.addTask {
                    let v1 = base + "/identitytoolkit.googleapis.com/v1"
                    let (_, sent) = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505550099"])
                    guard let session = sent["sessionInfo"] as? String else { return nil }
                    let (_, signed) = try await postJSON(
                        client, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": session, "code": "123456"])
                    return signed["localId"] as? String
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(fictionalIDs.count == 12)
        #expect(!fictionalIDs.contains(nil), "every concurrent sign-in succeeded")
        #expect(Set(fictionalIDs.compactMap { $0 }).count == 1, "one account")

        // Rotate keys through node 2's admin API: node 1 publishes the scheduled key within its reload interval, and
        // both go on signing with the current key until the scheduled one's activation (an hour and five minutes away).
        var rotate = HTTPClientRequest(url: node2.base + "/flint/v1/projects/demo-flint/keys:rotate")
        rotate.method = .POST
        rotate.headers.add(name: "authorization", value: "Bearer owner")
        let rotated = try await client.execute(rotate, timeout: .seconds(30))
        #expect(rotated.status == .ok)
        let rotatedBody =
            try JSONSerialization.jsonObject(with: Data(try await rotated.body.collect(upTo: 1 << 16).readableBytesView)) as? [String: String]
        let newest = try #require(rotatedBody?["kid"])
        // Node 1 is another process, which hears of the key when node 2's announcement reaches it: polled.
        var published: [[String: String]] = []
        for _ in 0..<50 {
            published = try #require(try await getJSON(client, node1.base + "/.well-known/jwks.json").1["keys"] as? [[String: String]])
            if published.count == 2 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(published.count == 2)
        #expect(published.contains { $0["kid"] == newest })
        let (_, again) = try await postJSON(
            client, node2.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken]
        )
        let token = try #require(again["id_token"] as? String)
        let header = String(decoding: try #require(Data(base64Encoded: base64(token.split(separator: ".")[0]))), as: UTF8.self)
        #expect(!header.contains(newest), "node 2 signs with the current key until the scheduled one starts")
        let jwks = String(
            buffer: try await client.execute(HTTPClientRequest(url: node1.base + "/.well-known/jwks.json"), timeout: .seconds(10)).body.collect(
                upTo: 1 << 20))
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: jwks)
        let payload = try await keys.verify(token, as: FirebaseClaims.self)
        #expect(payload.sub.value == signed["localId"] as? String)
    }

    @Test("concurrent sign-ups of one email on two nodes make one account; a link sent by one node signs in on the other")
    func emailAcrossNodes() async throws {
        try await withTwoNodes(["--reload-interval", "1", "--password-hash-cost", "10"]) { node1, node2 in
            try await emailAcrossNodes(node1, node2)
        }
    }

    private func emailAcrossNodes(_ node1: FlintProcess, _ node2: FlintProcess) async throws {
        let client = HTTPClient.shared
        let bases = [node1.base, node2.base]

        let outcomes = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for i in 0..<12 {
                let base = bases[i % 2]
                group.addTask {
                    let (status, body) = try await postJSON(
                        client, base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                        ["email": "Same@Example.com", "password": "password-\(i)"])
                    return (status, (body["error"] as? [String: Any])?["message"] as? String)
                }
            }
            return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.0 == 200 }.count == 1, "exactly one sign-up wins: \(outcomes)")
        #expect(outcomes.filter { $0.1 == "EMAIL_EXISTS" }.count == 11)

        let v1 = "/identitytoolkit.googleapis.com/v1"
        let (sent, _) = try await postJSON(
            client, node1.base + v1 + "/accounts:sendOobCode?key=k",
            ["requestType": "EMAIL_SIGNIN", "email": "roam@example.com", "continueUrl": "http://localhost/", "canHandleCodeInApp": "true"])
        #expect(sent == 200)
        let (_, listed) = try await getJSON(client, node2.base + "/emulator/v1/projects/demo-flint/oobCodes")
        let code = try #require((listed["oobCodes"] as? [[String: String]])?.first { $0["email"] == "roam@example.com" }?["oobCode"])
        let (status, _) = try await postJSON(
            client, node2.base + v1 + "/accounts:signInWithEmailLink?key=k", ["email": "roam@example.com", "oobCode": code])
        #expect(status == 200)
        let (again, _) = try await postJSON(
            client, node1.base + v1 + "/accounts:signInWithEmailLink?key=k", ["email": "roam@example.com", "oobCode": code])
        #expect(again == 400)
    }

    /// Runs `body` with two `--dev` nodes (and `flags`) on a new migrated database and one master key.
    func withTwoNodes(_ flags: [String] = [], _ body: (FlintProcess, FlintProcess) async throws -> Void) async throws {
        let url = try await freshDatabase(on: try #require(postgresURL))
        let data1 = temporaryDataDirectory()
        let data2 = temporaryDataDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: data1)
            try? FileManager.default.removeItem(atPath: data2)
        }
        let shared = ["--database", url, "--master-key-file", try newMasterKeyFile(), "--dev"] + flags
        let node1 = try await FlintProcess(dataDirectory: data1, extraArguments: shared)
        defer { node1.terminate() }
        let node2 = try await FlintProcess(dataDirectory: data2, extraArguments: shared)
        defer { node2.terminate() }
        try await body(node1, node2)
    }

    /// A new database on the test server, so runs never see each other's keys or users: already migrated (a copy of
    /// the test process's template), or `.empty` for a test whose first `flint` command migrates it.
    func freshDatabase(on base: String, schema: PostgresTestSchema = .migrated) async throws -> String {
        try await freshPostgresTestDatabase(on: base, prefix: "flint_e2e_", schema: schema)
    }

    private func pendingCode(_ client: HTTPClient, _ node: FlintProcess, _ phone: String) async throws -> String {
        let query = phone.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? phone
        let (_, listed) = try await getJSON(client, node.base + "/emulator/v1/projects/demo-flint/verificationCodes?phoneNumber=\(query)")
        let entry = try #require((listed["verificationCodes"] as? [[String: String]])?.last)
        return try #require(entry["code"])
    }
}
