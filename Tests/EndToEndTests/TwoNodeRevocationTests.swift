import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

extension TwoNodeTests {
    /// An admin call (dev mode's `owner` credential) with a JSON body; answers the status.
    private func admin(_ url: String, _ body: String) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer owner")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    @Test("an account disabled and sessions revoked through node 1 are refused by node 2 at once (read from the store)")
    func disablingAndRevocationHoldAtOnce() async throws {
        let client = HTTPClient.shared
        let url = try await freshDatabase(on: try #require(postgresURL))
        let (data1, data2) = (temporaryDataDirectory(), temporaryDataDirectory())
        defer {
            try? FileManager.default.removeItem(atPath: data1)
            try? FileManager.default.removeItem(atPath: data2)
        }
        let (setStatus, setOutput) = try await runFlint([
            "config", "set", "--database", url, "signIn.phoneNumber.testPhoneNumbers", #"{"+16505550123":"654321"}"#,
        ])
        #expect(setStatus == 0, "\(setOutput)")
        // The default reload interval (30 s): nothing below may depend on a node's cache.
        let shared = ["--database", url, "--master-key-file", try newMasterKeyFile(), "--dev"]
        let node1 = try await FlintProcess(dataDirectory: data1, extraArguments: shared)
        defer { node1.terminate() }
        let node2 = try await FlintProcess(dataDirectory: data2, extraArguments: shared)
        defer { node2.terminate() }
        let v1 = "/identitytoolkit.googleapis.com/v1"
        let signIn = { () async throws -> [String: Any] in
            let (_, sent) = try await postJSON(client, node1.base + "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505550123"])
            let (status, signed) = try await postJSON(
                client, node1.base + "\(v1)/accounts:signInWithPhoneNumber?key=k",
                ["sessionInfo": try #require(sent["sessionInfo"] as? String), "code": "654321"])
            #expect(status == 200, "\(signed)")
            return signed
        }
        let refresh = { (token: String) async throws -> (Int, String?) in
            let (status, answer) = try await postJSON(
                client, node2.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": token])
            return (status, (answer["error"] as? [String: Any])?["message"] as? String)
        }
        let signed = try await signIn()
        let refreshToken = try #require(signed["refreshToken"] as? String)
        let localID = try #require(signed["localId"] as? String)
        #expect(try await refresh(refreshToken).0 == 200)

        let update = node1.base + "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:update"
        #expect(try await admin(update, #"{"localId":"\#(localID)","disableUser":true}"#) == 200)
        let disabled = try await refresh(refreshToken)
        #expect(disabled.0 == 400 && disabled.1 == "USER_DISABLED")

        // Enabled again and signed in afresh through node 1, then every session revoked through node 1.
        #expect(try await admin(update, #"{"localId":"\#(localID)","disableUser":false}"#) == 200)
        let freshToken = try #require(try await signIn()["refreshToken"] as? String)
        #expect(try await refresh(freshToken).0 == 200)
        let validSince = String(Int(Date().timeIntervalSince1970) + 1)
        #expect(try await admin(update, #"{"localId":"\#(localID)","validSince":"\#(validSince)"}"#) == 200)
        let revoked = try await refresh(freshToken)
        #expect(revoked.0 == 400 && revoked.1 == "TOKEN_EXPIRED")
    }
}
