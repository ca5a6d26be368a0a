import AsyncHTTPClient
import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

extension TwoNodeTests {
    @Test("blocking functions set through node 1's config API run on node 2: its refusal stores nothing, and a change made on node 2 reaches node 1")
    func blockingFunctionsAcrossNodes() async throws {
        // The default reload (30 s): a change reaches the other node through its announcement, within a second.
        try await withTwoNodes(["--password-hash-cost", "10"]) { node1, node2 in try await blockingFunctionsAcrossNodes(node1, node2) }
    }

    private func blockingFunctionsAcrossNodes(_ node1: FlintProcess, _ node2: FlintProcess) async throws {
        let client = HTTPClient.shared
        let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"

        let function = StandInFunction()
        function.answer { claims in
            switch claims["event_type"]?.stringValue {
            case "beforeCreate" where claims["user_record"]?["email"]?.stringValue?.hasSuffix("@blocked.example") == true:
                .json(.badRequest, ["error": ["status": "INVALID_ARGUMENT", "message": "Unauthorized email"]])
            case "beforeSignIn": .json(.ok, ["userRecord": ["updateMask": "customClaims", "customClaims": ["role": "staff"]]])
            default: .json(.ok, [:])
            }
        }
        try await function.serve {
            // Both triggers configured through node 1; node 2 has them a second later.
            try await setTriggers(
                client, node1, ["beforeCreate": function.uri("create"), "beforeSignIn": function.uri("signin")])
            #expect(try await soon { try await configText(client, node2).contains(function.uri("create")) }, "node 2 has node 1's triggers")

            // Node 2 calls them: a refused sign-up leaves no account on either node.
            let (refusedStatus, refused) = try await postJSON(
                client, node2.base + signUp, ["email": "eve@blocked.example", "password": "password-1"])
            #expect(refusedStatus == 400)
            let message = (refused["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE : ") && message.contains("Unauthorized email"), "\(refused)")
            #expect(function.claims.map { $0["event_type"] } == ["beforeCreate"], "a refused creation is not signed in")
            #expect(function.claims.first?["aud"]?.stringValue == function.uri("create"))
            for node in [node1, node2] {
                #expect(try await accountCount(client, node, email: "eve@blocked.example") == 0, "nothing stored")
            }

            // An allowed sign-up on node 2 goes through both functions, and its tokens carry beforeSignIn's claims.
            let (allowedStatus, allowed) = try await postJSON(
                client, node2.base + signUp, ["email": "ada@allowed.example", "password": "password-2"])
            #expect(allowedStatus == 200, "\(allowed)")
            #expect(function.claims.dropFirst().map { $0["event_type"] } == ["beforeCreate", "beforeSignIn"])
            #expect(tokenClaims(allowed["idToken"] as? String)["role"] as? String == "staff")
            #expect(try await accountCount(client, node1, email: "ada@allowed.example") == 1)

            // beforeCreate dropped through node 2: node 1 no longer calls it, and the domain it refused signs up there.
            try await setTriggers(client, node2, ["beforeSignIn": function.uri("signin")])
            #expect(try await soon { try await !configText(client, node1).contains(function.uri("create")) }, "node 1 dropped beforeCreate")
            let calls = function.calls.count
            let (laterStatus, later) = try await postJSON(
                client, node1.base + signUp, ["email": "bob@blocked.example", "password": "password-3"])
            #expect(laterStatus == 200, "\(later)")
            // And node 2, which made the change, alike.
            let (ownStatus, own) = try await postJSON(
                client, node2.base + signUp, ["email": "cy@blocked.example", "password": "password-4"])
            #expect(ownStatus == 200, "\(own)")
            #expect(function.claims.dropFirst(calls).map { $0["event_type"] } == ["beforeSignIn", "beforeSignIn"])
            #expect(try await accountCount(client, node2, email: "bob@blocked.example") == 1)
            #expect(try await accountCount(client, node1, email: "cy@blocked.example") == 1)
        }
    }
}

/// Sets the project's blocking functions (trigger → URL) through `node`'s config API.
private func setTriggers(_ client: HTTPClient, _ node: FlintProcess, _ triggers: [String: String]) async throws {
    var patch = HTTPClientRequest(url: node.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=blockingFunctions")
    patch.method = .PATCH
    patch.headers.add(name: "content-type", value: "application/json")
    patch.headers.add(name: "authorization", value: "Bearer owner")
    let document = ["blockingFunctions": ["triggers": triggers.mapValues { ["functionUri": $0] }]]
    patch.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: document)))
    let answer = try await client.execute(patch, timeout: .seconds(30))
    let text = String(buffer: try await answer.body.collect(upTo: 1 << 20))
    #expect(answer.status == .ok, "\(text)")
}

/// `node`'s project config, as its admin API answers it.
private func configText(_ client: HTTPClient, _ node: FlintProcess) async throws -> String {
    var read = HTTPClientRequest(url: node.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config")
    read.headers.add(name: "authorization", value: "Bearer owner")
    return String(buffer: try await client.execute(read, timeout: .seconds(30)).body.collect(upTo: 1 << 20))
}

/// How many accounts `node` finds with `email` (the admin `accounts:lookup`).
private func accountCount(_ client: HTTPClient, _ node: FlintProcess, email: String) async throws -> Int {
    let (status, found) = try await postJSON(
        client, node.base + "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:lookup", ["email": email],
        headers: [("authorization", "Bearer owner")])
    #expect(status == 200, "\(found)")
    return (found["users"] as? [Any])?.count ?? 0
}

/// An ID token's claims (unverified).
private func tokenClaims(_ token: String?) -> [String: Any] {
    guard let part = token?.split(separator: ".").dropFirst().first, let data = Data(base64Encoded: base64(part)) else { return [:] }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}
