import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

extension TwoNodeTests {
    @Test("with the default 30 s reload, a config change, a key rotation and a key revocation made through one node reach the other within a second")
    func changesReachTheOtherNodeAtOnce() async throws {
        // No --reload-interval: the default (30 s) would be far too late for what follows.
        try await withTwoNodes { node1, node2 in try await changesReachTheOtherNodeAtOnce(node1, node2) }
    }

    private func changesReachTheOtherNodeAtOnce(_ node1: FlintProcess, _ node2: FlintProcess) async throws {
        let client = HTTPClient.shared
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
        let config2 = node2.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config"
        let configReached = try await soon {
            var read = HTTPClientRequest(url: config2)
            read.headers.add(name: "authorization", value: "Bearer owner")
            let answer = try await client.execute(read, timeout: .seconds(30))
            return String(buffer: try await answer.body.collect(upTo: 1 << 20)).contains("+16505550111")
        }
        #expect(configReached, "node 2's config has the number within a second")
        let (_, sent) = try await postJSON(client, node2.base + "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505550111"])
        let sessionInfo = try #require(sent["sessionInfo"] as? String)
        let (status, signed) = try await postJSON(
            client, node2.base + "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": sessionInfo, "code": "654321"])
        #expect(status == 200, "node 2 knows the fictional number: \(signed)")
        let refreshToken = try #require(signed["refreshToken"] as? String)

        // A key scheduled through node 1: node 2 publishes it a second later, and goes on signing with the current
        // key until the scheduled one's activation (an hour and five minutes away).
        let jwks2 = node2.base + "/.well-known/jwks.json"
        let current = try #require((try await getJSON(client, jwks2).1["keys"] as? [[String: String]])?.compactMap { $0["kid"] })
        #expect(current.count == 1)
        let (rotatedStatus, rotated) = try await postJSON(
            client, node1.base + "/flint/v1/projects/demo-flint/keys:rotate", [:], headers: [("authorization", "Bearer owner")])
        #expect(rotatedStatus == 200)
        let scheduled = try #require(rotated["kid"] as? String)
        let publishedScheduled = try await soon { Set(try await publishedKIDs(client, jwks2)) == Set(current + [scheduled]) }
        #expect(publishedScheduled, "node 2 publishes the key node 1 scheduled")
        #expect(try await refreshedHeader(client, node2, refreshToken).contains(current[0]), "and still signs with the current key")

        // The current key revoked through node 1 (emergency rotation): a second later node 2 no longer publishes it
        // and signs with the key the revocation made.
        let (revokedStatus, revoked) = try await postJSON(
            client, node1.base + "/flint/v1/projects/demo-flint/keys:revoke", ["kid": current[0]], headers: [("authorization", "Bearer owner")])
        #expect(revokedStatus == 200)
        let replacement = try #require(revoked["kid"] as? String)
        let unpublished = try await soon { !(try await publishedKIDs(client, jwks2)).contains(current[0]) }
        #expect(unpublished, "node 2 unpublishes the revoked key")
        #expect(try await refreshedHeader(client, node2, refreshToken).contains(replacement), "node 2 signs with the key node 1 made")
    }
}

/// Asks `condition` of the other node every 50 ms until it holds or a second has passed (the default reload
/// interval is 30 s: within a second, only the change announcement can have told the node); whether it held.
func soon(_ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(1)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// The key IDs a JWKS address publishes.
private func publishedKIDs(_ client: HTTPClient, _ jwks: String) async throws -> [String] {
    (try await getJSON(client, jwks).1["keys"] as? [[String: String]])?.compactMap { $0["kid"] } ?? []
}

/// The JOSE header (as text) of the ID token `node` answers a refresh with.
private func refreshedHeader(_ client: HTTPClient, _ node: FlintProcess, _ refreshToken: String) async throws -> String {
    let (_, answer) = try await postJSON(
        client, node.base + "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": refreshToken])
    let token = try #require(answer["id_token"] as? String)
    return String(decoding: try #require(Data(base64Encoded: base64(token.split(separator: ".")[0]))), as: UTF8.self)
}
