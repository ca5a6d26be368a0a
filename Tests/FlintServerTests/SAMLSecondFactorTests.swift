import FlintCore
import FlintSAMLTestSupport
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// A SAML first factor through a second factor: what the blocking functions and the re-issued tokens keep of it.
@Suite("SAML sign-in and second factors: the assertion's attributes at finalize and after an enrolment")
struct SAMLSecondFactorTests {
    /// What a SAML sign-in of `samlResponse`'s assertion puts in `firebase.sign_in_attributes`.
    static let attributes: JSONValue = ["email": "alice@example.com", "displayName": "Alice Example", "groups": ["admins", "staff"]]

    /// Links `saml.corp` to the account of `idToken` (alice@example.com, her address proven another way: an IdP's email
    /// is kept unverified, and enrolment wants a verified one).
    static func linkSAML(_ api: API, idToken: String) async throws {
        let (requestID, relayState) = try await api.samlStart(sessionID: "link")
        let postBody = URLQuery.encode([
            ("providerId", "saml.corp"),
            ("SAMLResponse", TestSigner.encode(try signed(samlResponse(to: requestID, now: api.clock.now(), assertionID: "_link")))),
            ("RelayState", relayState),
        ])
        let body: JSONValue = [
            "requestUri": "http://localhost", "postBody": .string(postBody), "sessionId": "link", "returnSecureToken": true,
            "idToken": .string(idToken),
        ]
        let linked = try await api.postRaw(Path.signInWithIdp, String(decoding: body.serialized(), as: UTF8.self))
        #expect(linked.status == .ok, "\(linked.text)")
    }

    /// Alice with `phone` enrolled as her second factor and `saml.corp` linked, in a project with SAML and MFA on (her
    /// address proven by an email link: an IdP's email is kept unverified, and enrolment wants a verified one).
    static func enrolledSAMLUser(_ api: API, phone: String) async throws {
        try await api.allowApp()
        try await api.configureSAML()
        try await api.enableMFA()
        let user = try await api.signInWithEmailLink("alice@example.com")
        let enrolled = try await api.enrollPhone(user, phone)
        try await linkSAML(api, idToken: try #require(enrolled.string("idToken"), "\(enrolled.text)"))
    }

    /// A SAML sign-in of alice through the handler's start, with the assertion `assertionID` (and `template`'s changes).
    static func samlSignIn(
        _ api: API, session: String, assertionID: String, _ change: (inout ResponseTemplate) -> Void = { _ in }
    ) async throws -> Reply {
        let (requestID, relayState) = try await api.samlStart(sessionID: session)
        var template = samlResponse(to: requestID, now: api.clock.now(), assertionID: assertionID)
        change(&template)
        return try await api.signInWithSAMLPostBody(try signed(template), relayState: relayState, sessionID: session)
    }

    @Test("beforeSignIn at mfaSignIn:finalize gets the SAML sign-in's sign_in_attributes, method and profile, as without a second factor")
    func blockingFunctionAtFinalize() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withFlint { api in
                try await Self.enrolledSAMLUser(api, phone: "+16505550123")
                try await api.setBlockingFunctions(["beforeSignIn": function.uri("signIn")])

                let challenged = try await Self.samlSignIn(api, session: "s-2", assertionID: "_assertion2")
                #expect(challenged["idToken"] == nil, "\(challenged.text)")
                #expect(function.claims.isEmpty, "beforeSignIn waits for the second factor")
                let done = try await api.finishWithPhone(challenged, "+16505550123")
                #expect(done.status == .ok, "\(done.text)")
                #expect(function.claims.count == 1)
                let call = try #require(function.claims.first)
                #expect(call["sign_in_attributes"] == Self.attributes && call["sign_in_method"] == "saml.corp", "\(call)")
                #expect(call["raw_user_info"]?.stringValue?.contains("Alice Example") == true, "\(call)")
                #expect(try TenantMFATests.firebase(done)["sign_in_attributes"] == Self.attributes)
            }
        }
    }

    @Test("an enrolment's re-issued tokens keep the SAML sign-in's sign_in_attributes and provider, refreshed too")
    func enrolmentKeepsAttributes() async throws {
        try await withFlint { api in
            try await api.allowApp()
            try await api.configureSAML()
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("alice@example.com")
            try await Self.linkSAML(api, idToken: user.idToken)
            let signedIn = try API.signedIn(try await Self.samlSignIn(api, session: "s-3", assertionID: "_assertion3"))
            #expect(try TenantMFATests.firebase(ofToken: signedIn.idToken)["sign_in_attributes"] == Self.attributes)
            let enrolled = try await api.enrollPhone(signedIn, "+16505550124")
            let claims = try TenantMFATests.firebase(enrolled)
            #expect(claims["sign_in_attributes"] == Self.attributes && claims["sign_in_provider"] == "saml.corp", "\(claims)")
            #expect(claims["sign_in_second_factor"] == "phone")
            let refreshed = try await api.refresh(try #require(enrolled.string("refreshToken")))
            let again = try TenantMFATests.firebase(ofToken: try #require(refreshed.string("id_token"), "\(refreshed.text)"))
            #expect(again["sign_in_attributes"] == Self.attributes && again["sign_in_second_factor"] == "phone")
        }
    }

    @Test("attributes too large to carry to the second factor are the IdP's error, and the node serves on")
    func oversizeAttributes() async throws {
        try await withFlint { api in
            try await Self.enrolledSAMLUser(api, phone: "+16505550125")
            let blob = String(repeating: "g", count: MFAPendingCredential.maxCarriedBytes + 1)
            let huge = try await Self.samlSignIn(api, session: "s-4", assertionID: "_assertion4") { $0.attributes.append(("blob", [blob])) }
            #expect(huge.errorCode == "INVALID_IDP_RESPONSE" && huge.errorMessage?.contains("too large") == true, "\(huge.text)")
            let fine = try await Self.samlSignIn(api, session: "s-5", assertionID: "_assertion5")
            #expect(fine.string("mfaPendingCredential") != nil, "\(fine.text)")
        }
    }
}
