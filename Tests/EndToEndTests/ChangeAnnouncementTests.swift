import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

extension TwoNodeTests {
    @Test("with the default 30 s reload, a config change and a key rotation made through one node reach the other within a second")
    func changesReachTheOtherNodeAtOnce() async throws {
        let client = HTTPClient.shared
        let url = try await freshDatabase(on: try #require(postgresURL))
        let data1 = temporaryDataDirectory()
        let data2 = temporaryDataDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: data1)
            try? FileManager.default.removeItem(atPath: data2)
        }
        // No --reload-interval: the default (30 s) would be far too late for what follows.
        let shared = ["--database", url, "--master-key-file", try newMasterKeyFile(), "--dev"]
        let node1 = try await FlintProcess(dataDirectory: data1, extraArguments: shared, client: client)
        defer { node1.stop() }
        let node2 = try await FlintProcess(dataDirectory: data2, extraArguments: shared, client: client)
        defer { node2.stop() }
        let v1 = "/identitytoolkit.googleapis.com/v1"

        // A fictional number configured through node 1 is fictional on node 2 a second later: its code signs in
        // there (node 2 would otherwise treat it as real, text it a random code and refuse this one).
        var patch = HTTPClientRequest(
            url: node1.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=signIn.phoneNumber.testPhoneNumbers")
        patch.method = .PATCH
        patch.headers.add(name: "content-type", value: "application/json")
        patch.headers.add(name: "authorization", value: "Bearer owner")
        let document = ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+16505550111": "654321"]]]]
        patch.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: document)))
        let patched = try await client.execute(patch, timeout: .seconds(30))
        _ = try await patched.body.collect(upTo: 1 << 20)
        #expect(patched.status == .ok)
        try await Task.sleep(for: .seconds(1))
        let (_, sent) = try await postJSON(client, node2.base + "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505550111"])
        let sessionInfo = try #require(sent["sessionInfo"] as? String)
        let (status, signed) = try await postJSON(
            client, node2.base + "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": sessionInfo, "code": "654321"])
        #expect(status == 200, "node 2 knows the fictional number: \(signed)")
        let refreshToken = try #require(signed["refreshToken"] as? String)

        // A key rotated through node 1: node 2 signs with the new key a second later.
        var rotate = HTTPClientRequest(url: node1.base + "/flint/v1/projects/demo-flint/keys:rotate")
        rotate.method = .POST
        rotate.headers.add(name: "authorization", value: "Bearer owner")
        let rotated = try await client.execute(rotate, timeout: .seconds(30))
        let rotatedBody =
            try JSONSerialization.jsonObject(with: Data(try await rotated.body.collect(upTo: 1 << 16).readableBytesView)) as? [String: String]
        let newest = try #require(rotatedBody?["kid"])
        try await Task.sleep(for: .seconds(1))
        let (_, again) = try await postJSON(
            client, node2.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken])
        let token = try #require(again["id_token"] as? String)
        let header = String(decoding: try #require(Data(base64Encoded: base64(token.split(separator: ".")[0]))), as: UTF8.self)
        #expect(header.contains(newest), "node 2 signs with the key node 1 rotated in")
    }
}
