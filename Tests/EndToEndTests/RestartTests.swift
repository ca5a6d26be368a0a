import AsyncHTTPClient
import FlintTesting
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import Testing

@Suite("flint serve, end to end", .serialized)
struct RestartTests {
    @Test("a user signed in before a restart refreshes after it, with keys and data kept")
    func signInRestartRefresh() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }

        let first = try await FlintProcess(dataDirectory: data)
        let v1 = first.base + "/identitytoolkit.googleapis.com/v1"
        let (sendStatus, sent) = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=e2e", ["phoneNumber": "+1 650-555-3434"])
        #expect(sendStatus == 200)
        let sessionInfo = try #require(sent["sessionInfo"] as? String)
        let (_, pending) = try await getJSON(client, first.base + "/emulator/v1/projects/demo-flint/verificationCodes")
        let entry = try #require((pending["verificationCodes"] as? [[String: String]])?.first { $0["sessionInfo"] == sessionInfo })
        let code = try #require(entry["code"])
        let (signStatus, signed) = try await postJSON(
            client, "\(v1)/accounts:signInWithPhoneNumber?key=e2e", ["sessionInfo": sessionInfo, "code": code])
        #expect(signStatus == 200)
        let refreshToken = try #require(signed["refreshToken"] as? String)
        let uid = try #require(signed["localId"] as? String)
        #expect(signed["phoneNumber"] as? String == "+16505553434")
        #expect(!first.log.contains(code), "the code never appears in the log")
        #expect(!first.log.contains(refreshToken), "tokens never appear in the log")
        #expect(await first.stop() == 0, "SIGTERM shuts down gracefully")

        let second = try await FlintProcess(dataDirectory: data)
        defer { second.terminate() }
        let (refreshStatus, refreshed) = try await postJSON(
            client, second.base + "/securetoken.googleapis.com/v1/token?key=e2e", ["grant_type": "refresh_token", "refresh_token": refreshToken]
        )
        #expect(refreshStatus == 200)
        #expect(refreshed["user_id"] as? String == uid)
        let idToken = try #require(refreshed["id_token"] as? String)

        // The new token verifies with the keys the restarted server publishes, as any Firebase verifier would check it.
        var jwksRequest = HTTPClientRequest(url: second.base + "/.well-known/jwks.json")
        jwksRequest.method = .GET
        let jwksResponse = try await client.execute(jwksRequest, timeout: .seconds(10))
        let jwks = String(buffer: try await jwksResponse.body.collect(upTo: 1 << 20))
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: jwks)
        let payload = try await keys.verify(idToken, as: FirebaseClaims.self)
        #expect(payload.sub.value == uid)
        #expect(payload.iss.value == "https://securetoken.google.com/demo-flint")
        #expect(payload.phone_number == "+16505553434")

        let (lookupStatus, looked) = try await postJSON(
            client, "\(v1.replacingOccurrences(of: first.base, with: second.base))/accounts:lookup?key=e2e", ["idToken": idToken])
        #expect(lookupStatus == 200)
        #expect(((looked["users"] as? [[String: Any]])?.first?["localId"] as? String) == uid)
    }

    @Test("the outbox survives a restart")
    func outboxDurable() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try await FlintProcess(dataDirectory: data)
        _ = try await postJSON(
            client, first.base + "/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=e2e", ["phoneNumber": "+33612345678"],
            headers: [("X-Firebase-Locale", "fr")])
        await first.stop()
        let second = try await FlintProcess(dataDirectory: data)
        defer { second.terminate() }
        let (_, outbox) = try await getJSON(client, second.base + "/emulator/v1/projects/demo-flint/outbox")
        let messages = try #require(outbox["messages"] as? [[String: Any]])
        #expect(messages.count == 1)
        #expect(messages.first?["to"] as? String == "+33612345678")
        #expect(messages.first?["channel"] as? String == "sms")
    }
}

/// The checks a Firebase verifier makes: signature (by the key collection), audience, issuer, expiry.
struct FirebaseClaims: JWTPayload {
    let sub: SubjectClaim
    let aud: AudienceClaim
    let iss: IssuerClaim
    let exp: ExpirationClaim
    let phone_number: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: "demo-flint")
        guard iss.value == "https://securetoken.google.com/demo-flint" else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer")
        }
    }
}
