import AsyncHTTPClient
import FlintTesting
import Foundation
import Testing

@Suite("flint users sessions and end-session")
struct SessionsCommandLineTests {
    @Test("the CLI lists an account's sessions with their device and ends one, which is then gone from the list and cannot be ended again")
    func listAndEnd() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await FlintProcess(dataDirectory: data)
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1"
        let (status, signedUp) = try await postJSON(
            client, "\(v1)/accounts:signUp?key=k", ["email": "ada@example.com", "password": "correct horse"],
            headers: [("User-Agent", "curl/8.5.0")])
        await server.stop()
        #expect(status == 200, "\(signedUp)")
        let uid = try #require(signedUp["localId"] as? String)

        let listed = try await runFlintApart(["users", "sessions", uid, "--data", data])
        #expect(listed.status == 0, "\(listed.err)")
        let sessions = try #require(
            (try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])?["sessions"] as? [[String: Any]])
        #expect(sessions.count == 1 && sessions.first?["device"] as? String == "curl")
        let session = try #require(sessions.first?["sessionId"] as? String)

        let ended = try await runFlintApart(["users", "end-session", uid, session, "--data", data])
        #expect(ended.status == 0 && ended.out.contains(session), "\(ended.err)")
        let again = try await runFlintApart(["users", "end-session", uid, session, "--data", data])
        #expect(again.status != 0 && again.err.contains("SESSION_NOT_FOUND"))
        let after = try await runFlintApart(["users", "sessions", uid, "--data", data])
        #expect(after.out.contains(#""sessions" : ["#) && !after.out.contains(session))
    }
}
