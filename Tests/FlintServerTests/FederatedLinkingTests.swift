import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Linking providers, as Firebase answers it")
struct FederatedLinkingTests {
    @Test("linking an identity the account already holds answers FEDERATED_USER_ID_ALREADY_LINKED")
    func alreadyLinkedToTheSameAccount() async throws {
        try await withIdentityProviders { api, issuer in
            let user = try API.signedIn(
                try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))]))
            let again = try await api.signInWithIdp(
                [("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))], idToken: user.idToken,
                returnIdpCredential: false)
            #expect(again.errorCode == "FEDERATED_USER_ID_ALREADY_LINKED", "\(again.text)")
            // Asking for the provider's credential, the conflict comes as a 200 with errorMessage, as Firebase does.
            let withCredential = try await api.signInWithIdp(
                [("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))], idToken: user.idToken)
            #expect(withCredential.string("errorMessage") == "FEDERATED_USER_ID_ALREADY_LINKED", "\(withCredential.text)")
        }
    }

    @Test("linking a provider that verified the account's own email verifies the account")
    func verifiedProviderEmailVerifiesTheAccount() async throws {
        try await withIdentityProviders { api, issuer in
            let user = try await api.signUp("ada@gmail.com")
            #expect(try await api.adminAccount(user.localId)?["emailVerified"] != .bool(true))
            let linked = try await api.signInWithIdp(
                [("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))], idToken: user.idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(try await api.adminAccount(user.localId)?["emailVerified"] == .bool(true))
        }
    }

    @Test("a verified provider taking over an unverified account replaces the profile whoever made it had set")
    func takeoverReplacesTheProfile() async throws {
        try await withIdentityProviders { api, issuer in
            let made = try await api.signUp("ada@gmail.com", extra: ["displayName": "Mallory"])
            let reply = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", try issuer.token(googleClaims(api)))])
            #expect(reply.status == .ok, "\(reply.text)")
            let account = try #require(try await api.adminAccount(made.localId))
            #expect(account["displayName"]?.stringValue == "Ada Lovelace")
            #expect(account["photoUrl"]?.stringValue == "https://example.com/ada.png")
        }
    }
}
