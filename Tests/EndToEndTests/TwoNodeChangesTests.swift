import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// What one node changes reaches the other by announcement (PostgreSQL `NOTIFY`), long before the default reload
/// interval (30 s) would bring it; what decides a sign-in is exact in the store.
@Suite("two nodes: changes reach the other node by announcement", .serialized, .enabled(if: postgresURL != nil))
struct TwoNodeChangesTests {
    /// An admin call (dev mode's `owner` credential) with a JSON body; answers (status, JSON).
    private func admin(_ method: HTTPMethod, _ url: String, _ body: String? = nil) async throws -> (Int, [String: Any]) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "authorization", value: "Bearer owner")
        if let body {
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 22)
        return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:])
    }

    /// Polls `check` every 20 ms for up to `limit`; returns how long it took to hold, or `nil`.
    private func timeUntil(_ limit: Duration = .seconds(10), _ check: () async throws -> Bool) async throws -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            if try await check() { return clock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test("a config change and a key rotation made on node 1 reach node 2 by announcement; disabling and revocation hold at once")
    func changesWithinASecond() async throws {
        let client = HTTPClient.shared
        let url = try TwoNodeTests().freshDatabase(on: try #require(postgresURL))
        let (data1, data2) = (temporaryDataDirectory(), temporaryDataDirectory())
        defer {
            try? FileManager.default.removeItem(atPath: data1)
            try? FileManager.default.removeItem(atPath: data2)
        }
        // The default reload interval: only the announcement can bring a change within a second.
        let shared = ["--database", url, "--master-key-file", try newMasterKeyFile(), "--dev"]
        let node1 = try await FlintProcess(dataDirectory: data1, extraArguments: shared, client: client)
        defer { node1.stop() }
        let node2 = try await FlintProcess(dataDirectory: data2, extraArguments: shared, client: client)
        defer { node2.stop() }
        let config1 = node1.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config"
        let config2 = node2.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config"

        // Node 2's listener connects in the background after it answers: a first change, waited for as long as a
        // reload could take, shows it is listening. What follows is timed; on a quiet machine it arrives within 1 s
        // (BENCHMARKS.md), and the test allows 5 s (far below the 30 s reload) so a loaded CI cannot make it flaky.
        let numbers = { (config: [String: Any]) in
            ((config["signIn"] as? [String: Any])?["phoneNumber"] as? [String: Any])?["testPhoneNumbers"] as? [String: String]
        }
        let (warmedUp, _) = try await admin(
            .PATCH, config1 + "?updateMask=signIn.phoneNumber.testPhoneNumbers",
            #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"+16505550100":"111111"}}}}"#)
        #expect(warmedUp == 200)
        let listening = try await timeUntil(.seconds(40)) { numbers(try await admin(.GET, config2).1)?["+16505550100"] == "111111" }
        #expect(listening != nil, "node 2 never saw the first change")

        // A fictional number configured through node 1: node 2 treats it as fictional (no text sent).
        let (patched, _) = try await admin(
            .PATCH, config1 + "?updateMask=signIn.phoneNumber.testPhoneNumbers",
            #"{"signIn":{"phoneNumber":{"testPhoneNumbers":{"+16505550123":"654321"}}}}"#)
        #expect(patched == 200)
        let configured = try await timeUntil { numbers(try await admin(.GET, config2).1)?["+16505550123"] == "654321" }
        #expect(try #require(configured) < .seconds(5), "config reached node 2 after \(String(describing: configured))")
        let (_, sent) = try await postJSON(
            client, node2.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505550123"])
        let (signedStatus, signed) = try await postJSON(
            client, node2.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=k",
            ["sessionInfo": try #require(sent["sessionInfo"] as? String), "code": "654321"])
        #expect(signedStatus == 200, "node 2 signs in with the fictional code")
        let (_, codes) = try await getJSON(client, node2.base + "/emulator/v1/projects/demo-flint/verificationCodes?phoneNumber=%2B16505550123")
        #expect((codes["verificationCodes"] as? [Any])?.isEmpty ?? true, "no text was sent to the fictional number")

        // A key rotated through node 1 is published by node 2 within 1 s.
        let before = try #require(try await getJSON(client, node2.base + "/.well-known/jwks.json").1["keys"] as? [[String: String]]).count
        let (rotated, _) = try await admin(.POST, node1.base + "/flint/v1/projects/demo-flint/keys:rotate")
        #expect(rotated == 200)
        let published = try await timeUntil {
            try await getJSON(client, node2.base + "/.well-known/jwks.json").1["keys"].map { ($0 as? [Any])?.count ?? 0 } ?? 0 > before
        }
        #expect(try #require(published) < .seconds(5), "the key reached node 2 after \(String(describing: published))")

        // Disabling and revocation are read from the store on every refresh: node 2 refuses at once.
        let refreshToken = try #require(signed["refreshToken"] as? String)
        let localID = try #require(signed["localId"] as? String)
        let refresh = { () async throws -> (Int, [String: Any]) in
            try await postJSON(
                client, node2.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken])
        }
        #expect(try await refresh().0 == 200)
        let update = node1.base + "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:update"
        #expect(try await admin(.POST, update, #"{"localId":"\#(localID)","disableUser":true}"#).0 == 200)
        let disabled = try await refresh()
        #expect(disabled.0 == 400 && ((disabled.1["error"] as? [String: Any])?["message"] as? String) == "USER_DISABLED")
        // Enabled again and signed in afresh (through node 1), then every session revoked through node 1.
        #expect(try await admin(.POST, update, #"{"localId":"\#(localID)","disableUser":false}"#).0 == 200)
        let (_, again) = try await postJSON(
            client, node1.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505550123"])
        let (_, fresh) = try await postJSON(
            client, node1.base + "/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=k",
            ["sessionInfo": try #require(again["sessionInfo"] as? String), "code": "654321"])
        let freshToken = try #require(fresh["refreshToken"] as? String)
        let refreshFresh = { () async throws -> (Int, [String: Any]) in
            try await postJSON(
                client, node2.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": freshToken])
        }
        #expect(try await refreshFresh().0 == 200)
        let validSince = String(Int(Date().timeIntervalSince1970) + 1)
        #expect(try await admin(.POST, update, #"{"localId":"\#(localID)","validSince":"\#(validSince)"}"#).0 == 200)
        let revoked = try await refreshFresh()
        #expect(revoked.0 == 400 && ((revoked.1["error"] as? [String: Any])?["message"] as? String) == "TOKEN_EXPIRED")
    }
}
