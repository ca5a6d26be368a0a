import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

extension TwoNodeTests {
    @Test("a session ended through node 1 is refused by node 2 at once: its refresh and its ID token")
    func endedSessionHoldsAtOnce() async throws {
        let client = HTTPClient.shared
        let url = try await freshDatabase(on: try #require(postgresURL))
        let (data1, data2) = (temporaryDataDirectory(), temporaryDataDirectory())
        defer {
            try? FileManager.default.removeItem(atPath: data1)
            try? FileManager.default.removeItem(atPath: data2)
        }
        let shared = ["--database", url, "--master-key-file", try newMasterKeyFile(), "--dev"]
        let node1 = try await FlintProcess(dataDirectory: data1, extraArguments: shared)
        defer { node1.terminate() }
        let node2 = try await FlintProcess(dataDirectory: data2, extraArguments: shared)
        defer { node2.terminate() }
        let v1 = "/identitytoolkit.googleapis.com/v1"
        let (status, signedUp) = try await postJSON(
            client, node1.base + "\(v1)/accounts:signUp?key=k", ["email": "ada@example.com", "password": "correct horse"])
        #expect(status == 200, "\(signedUp)")
        let (_, other) = try await postJSON(
            client, node2.base + "\(v1)/accounts:signInWithPassword?key=k",
            ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": "true"])
        let otherRefresh = try #require(other["refreshToken"] as? String)
        let otherIDToken = try #require(other["idToken"] as? String)
        let keptIDToken = try #require(signedUp["idToken"] as? String)

        let (listed, list) = try await postJSON(client, node1.base + "/flint/v1/accounts/sessions:list?key=k", ["idToken": keptIDToken])
        #expect(listed == 200, "\(list)")
        let sessions = try #require(list["sessions"] as? [[String: Any]])
        let ended = try #require(sessions.first { $0["current"] as? Bool == false }?["sessionId"] as? String)
        let (endStatus, endAnswer) = try await postJSON(
            client, node1.base + "/flint/v1/accounts/sessions:end?key=k", ["idToken": keptIDToken, "sessionId": ended])
        #expect(endStatus == 200, "\(endAnswer)")

        let (refreshed, refusal) = try await postJSON(
            client, node2.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": otherRefresh])
        #expect(refreshed == 400 && (refusal["error"] as? [String: Any])?["message"] as? String == "TOKEN_EXPIRED")
        let (looked, lookup) = try await postJSON(client, node2.base + "\(v1)/accounts:lookup?key=k", ["idToken": otherIDToken])
        #expect(looked == 400 && (lookup["error"] as? [String: Any])?["message"] as? String == "TOKEN_EXPIRED")
        let (kept, _) = try await postJSON(client, node2.base + "\(v1)/accounts:lookup?key=k", ["idToken": keptIDToken])
        #expect(kept == 200)
    }
}
