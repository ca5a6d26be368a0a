import FlintCore
import FlintServer
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

/// A client behind the trusted proxy, as `X-Forwarded-For` names it.
private func client(_ address: String) -> HTTPFields { [HTTPField.Name("X-Forwarded-For")!: address] }

extension API {
    /// A passkey sign-in try from `headers`' client: a fresh challenge, `authenticator`'s assertion, its signature
    /// broken when `forged`.
    func passkeySignIn(_ authenticator: inout SoftwareAuthenticator, forged: Bool = false, headers: HTTPFields = [:]) async throws -> Reply {
        let start = try await postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin, headers: headers)
        let challenge = try Self.clientDataChallenge(try #require(start["credentialRequestOptions"]?["challenge"]?.stringValue, "\(start.text)"))
        var assertion = try authenticator.assert(rpID: "localhost", challenge: challenge, origin: passkeyOrigin)
        if forged { assertion.signature[assertion.signature.count - 1] ^= 0x01 }
        return try await postJSON(Path.passkeySignInFinalize, Self.assertionBody(authenticator, assertion), origin: passkeyOrigin, headers: headers)
    }
}

@Suite("Passkey sign-in limits: failures per credential from a client IP and per client IP, challenges per client IP")
struct PasskeyLimitTests {
    @Test("failed tries on one credential are throttled, the right one too, until the window passes; sign-ins give their slot back")
    func perCredential() async throws {
        try await withFlint(configure: { $0.passkeyFailuresPerCredential = 3 }) { api in
            let user = try await api.signIn("+16505550181")
            var authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            for _ in 0..<4 { #expect(try await api.passkeySignIn(&authenticator).status == .ok, "a sign-in keeps no failure slot") }
            for _ in 0..<3 {
                #expect(try await api.passkeySignIn(&authenticator, forged: true).errorCode == "INVALID_AUTHENTICATOR_RESPONSE")
            }
            #expect(try await api.passkeySignIn(&authenticator).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            var oversized = SoftwareAuthenticator(credentialID: Array(repeating: 7, count: 1024))
            #expect(try await api.passkeySignIn(&oversized).errorCode == "INVALID_AUTHENTICATOR_RESPONSE", "no counter for a 1024-byte ID")
            var stranger = SoftwareAuthenticator()
            #expect(try await api.passkeySignIn(&stranger).errorMessage == "PASSKEY_ENROLLMENT_NOT_FOUND", "another credential is not held back")
            api.clock.advance(by: .seconds(900))
            #expect(try await api.passkeySignIn(&authenticator).status == .ok)
        }
    }

    @Test("forged assertions with the owner's credential ID from elsewhere never lock the owner out; the forger is throttled")
    func othersCannotLockTheOwnerOut() async throws {
        try await withFlint(configure: { $0.trustForwardedFor = true }) { api in
            let user = try await api.signIn("+16505550184")
            var authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            let forger = client("203.0.113.11")
            for _ in 0..<10 {
                #expect(try await api.passkeySignIn(&authenticator, forged: true, headers: forger).errorCode == "INVALID_AUTHENTICATOR_RESPONSE")
            }
            for _ in 0..<2 {
                #expect(try await api.passkeySignIn(&authenticator, forged: true, headers: forger).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            }
            #expect(try await api.passkeySignIn(&authenticator, headers: client("198.51.100.9")).status == .ok, "the owner signs in")
        }
    }

    @Test("failed tries from one client IP are throttled across credentials; another client signs in")
    func perIP() async throws {
        try await withFlint(configure: {
            $0.passkeyFailuresPerIP = 3
            $0.trustForwardedFor = true
        }) { api in
            let user = try await api.signIn("+16505550182")
            var authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            let attacker = client("203.0.113.9")
            for _ in 0..<3 {
                var unknown = SoftwareAuthenticator()
                #expect(try await api.passkeySignIn(&unknown, headers: attacker).errorMessage == "PASSKEY_ENROLLMENT_NOT_FOUND")
            }
            #expect(try await api.passkeySignIn(&authenticator, headers: attacker).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await api.passkeySignIn(&authenticator, headers: client("198.51.100.7")).status == .ok)
        }
    }

    @Test("sign-in challenges per client IP are limited")
    func challengesPerIP() async throws {
        try await withFlint(configure: {
            $0.passkeyChallengesPerIP = 2
            $0.trustForwardedFor = true
        }) { api in
            let flooding = client("203.0.113.10")
            for _ in 0..<2 { #expect(try await api.postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin, headers: flooding).status == .ok) }
            let refused = try await api.postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin, headers: flooding)
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await api.postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin, headers: client("198.51.100.8")).status == .ok)
            api.clock.advance(by: .seconds(900))
            #expect(try await api.postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin, headers: flooding).status == .ok)
        }
    }
}

extension PasskeyLimitTests {
    @Test("0 turns the per-IP limits off (one proxy or NAT for many users): challenges and failures then count only per credential")
    func perIPLimitsOff() async throws {
        try await withFlint(configure: {
            $0.passkeyChallengesPerIP = 0
            $0.passkeyFailuresPerIP = 0
            $0.passkeyFailuresPerCredential = 2
            $0.trustForwardedFor = true
        }) { api in
            let shared = client("203.0.113.20")
            for _ in 0..<20 { #expect(try await api.postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin, headers: shared).status == .ok) }
            let user = try await api.signIn("+16505550183")
            var authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            for _ in 0..<2 {
                #expect(try await api.passkeySignIn(&authenticator, forged: true, headers: shared).errorCode == "INVALID_AUTHENTICATOR_RESPONSE")
            }
            #expect(try await api.passkeySignIn(&authenticator, headers: shared).errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }
}
