import FlintCore
import FlintSAMLTestSupport
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintSAML
@testable import FlintServer

/// The SP and IdP of the SAML sign-in suite: the test node's handler is the ACS.
enum SAMLSide {
    static let acs = "http://127.0.0.1:0/__/auth/handler"
    static let spEntityID = "https://flint.test/sp"
    static let ssoURL = "https://idp.test/sso"
}

extension API {
    /// Configures `saml.corp` (or `id`) trusting the test IdP's certificate (or `certificates`).
    func configureSAML(_ id: String = "saml.corp", certificates: [String]? = nil) async throws {
        let resource = SAMLFixture.resource(
            idpEntityID: ResponseTemplate.idpEntityID, ssoURL: SAMLSide.ssoURL, certificates: try certificates ?? [TestKey.idp.get().certificatePEM],
            spEntityID: SAMLSide.spEntityID, callbackURI: SAMLSide.acs)
        let reply = try await admin(.post, "\(Path.samlIdps)?inboundSamlConfigId=\(id)", body: SAMLFixture.body(resource))
        #expect(reply.status == .ok, "SAML config create failed: \(reply.text)")
    }

    /// An app's start through the handler: the AuthnRequest's ID and the `RelayState` the IdP gets.
    func samlStart(_ providerID: String = "saml.corp", sessionID: String) async throws -> (requestID: String, relayState: String) {
        let start = try await handler(Self.redirectQuery(providerID, sessionID: sessionID))
        #expect(start.status == .seeOther, "\(start.text)")
        return try Self.samlRequest(at: try #require(start.headers[.location]))
    }

    /// The AuthnRequest ID and `RelayState` of an IdP URL.
    static func samlRequest(at location: String) throws -> (requestID: String, relayState: String) {
        #expect(location.hasPrefix(SAMLSide.ssoURL + "?SAMLRequest="))
        let query = queryItems(of: location)
        let xml = try TestSigner.inflate(try #require(query["SAMLRequest"]))
        #expect(xml.contains(#"AssertionConsumerServiceURL="\#(SAMLSide.acs)""#) && xml.contains("<saml:Issuer>\(SAMLSide.spEntityID)</saml:Issuer>"))
        let id = try #require(xml.firstMatch(of: #/ ID="(_[0-9a-f]{64})"/#)?.output.1)
        return (String(id), try #require(query["RelayState"]))
    }

    /// The IdP's HTTP-POST binding to the handler.
    func postSAML(_ xml: String, relayState: String) async throws -> Reply {
        try await call(
            .post, Path.handler, body: URLQuery.encode([("SAMLResponse", TestSigner.encode(xml)), ("RelayState", relayState)]),
            contentType: "application/x-www-form-urlencoded")
    }

    /// `signInWithIdp` with the SAML response and RelayState in `postBody`, as an app that received them itself sends it.
    func signInWithSAMLPostBody(_ xml: String, relayState: String, sessionID: String) async throws -> Reply {
        let postBody = URLQuery.encode([("providerId", "saml.corp"), ("SAMLResponse", TestSigner.encode(xml)), ("RelayState", relayState)])
        let body: JSONValue = [
            "requestUri": "http://localhost", "postBody": .string(postBody), "sessionId": .string(sessionID), "returnSecureToken": true,
        ]
        return try await postRaw(Path.signInWithIdp, String(decoding: body.serialized(), as: UTF8.self))
    }
}

/// A response of the test IdP to `requestID`, for this node's SP, valid around `now`.
func samlResponse(to requestID: String, now: Instant, assertionID: String = "_assertion1", nameID: String = "alice@example.com") -> ResponseTemplate {
    let date = { (offset: Double) in SAMLTime.format(Date(timeIntervalSince1970: Double(now.millisecondsSince1970) / 1000 + offset)) }
    var template = ResponseTemplate()
    template.assertionID = assertionID
    template.nameID = nameID
    (template.responseInResponseTo, template.confirmationInResponseTo) = (requestID, requestID)
    (template.destination, template.recipient, template.audiences) = (SAMLSide.acs, SAMLSide.acs, [SAMLSide.spEntityID])
    (template.conditionsNotBefore, template.authnInstant) = (date(-60), date(-30))
    (template.confirmationNotOnOrAfter, template.conditionsNotOnOrAfter) = (date(300), date(600))
    template.attributes = [("email", [nameID]), ("displayName", ["Alice Example"]), ("groups", ["admins", "staff"])]
    return template
}

/// The response signed by the IdP (its assertion, or the whole response).
func signed(_ template: ResponseTemplate, whole: Bool = false, key: TestKey? = nil) throws -> String {
    try TestSigner.sign(template.xml(), ids: [whole ? template.responseID : template.assertionID], key: key ?? TestKey.idp.get())
}

@Suite("SAML sign-in: the handler's AuthnRequest, the IdP's POST, signInWithIdp")
struct SAMLSignInTests {
    @Test("an app signs in: the IdP's response comes back through the handler, the link signs in once with the attributes in the ID token")
    func appSignIn() async throws {
        try await withFlint { api in
            try await api.allowApp()
            try await api.configureSAML()
            let (requestID, relayState) = try await api.samlStart(sessionID: "session-1")
            let xml = try signed(samlResponse(to: requestID, now: api.clock.now()))
            let callback = try RedirectCallback(try await api.postSAML(xml, relayState: relayState))
            #expect(callback.scheme == redirectScheme && callback.inner["eventId"] == "EVENTABCDE")
            #expect(callback.link.hasPrefix(SAMLSide.acs + "?SAMLResponse="))
            let reply = try await api.completeRedirect(link: callback.link, sessionID: "session-1", providerID: "saml.corp")
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.string("providerId") == "saml.corp" && reply.string("federatedId") == "alice@example.com")
            #expect(reply.string("email") == "alice@example.com" && reply["emailVerified"] == .bool(false))
            #expect(reply.string("displayName") == "Alice Example" && reply["isNewUser"] == .bool(true))
            let claims = try JWT.payload(try #require(reply.string("idToken")))
            let attributes: JSONValue = ["email": "alice@example.com", "displayName": "Alice Example", "groups": ["admins", "staff"]]
            #expect(claims["firebase"]?["sign_in_provider"] == "saml.corp")
            #expect(claims["firebase"]?["sign_in_attributes"] == attributes)
            #expect(claims["firebase"]?["identities"]?["saml.corp"] == ["alice@example.com"])
            // A refreshed ID token keeps them.
            let refreshed = try await api.refresh(try #require(reply.string("refreshToken")))
            let again = try JWT.payload(try #require(refreshed.string("id_token")))
            #expect(again["firebase"]?["sign_in_attributes"] == attributes && again["firebase"]?["sign_in_provider"] == "saml.corp")
            // The same response again, through the link or in a postBody: its assertion is spent.
            let replay = try await api.completeRedirect(link: callback.link, sessionID: "session-1", providerID: "saml.corp")
            #expect(replay.errorCode == "INVALID_IDP_RESPONSE", "\(replay.text)")
            let posted = try await api.signInWithSAMLPostBody(xml, relayState: relayState, sessionID: "session-1")
            #expect(posted.errorCode == "INVALID_IDP_RESPONSE", "\(posted.text)")
            // A new sign-in of the same user finds the account.
            let (second, relay2) = try await api.samlStart(sessionID: "session-2")
            let xml2 = try signed(samlResponse(to: second, now: api.clock.now(), assertionID: "_assertion2"), whole: true)
            let next = try await api.signInWithSAMLPostBody(xml2, relayState: relay2, sessionID: "session-2")
            #expect(next.status == .ok && next.string("localId") == reply.string("localId") && next["isNewUser"] == .bool(false), "\(next.text)")
        }
    }

    @Test("createAuthUri with a SAML provider: the IdP's post goes on to the continueUri, which signInWithIdp takes with the sessionId")
    func createAuthURI() async throws {
        try await withFlint { api in
            try await api.configureSAML()
            let reply = try await api.postJSON(
                Path.createAuthURI, ["providerId": "saml.corp", "continueUri": "http://localhost/done", "sessionId": "app-session"])
            #expect(reply.status == .ok, "\(reply.text)")
            let (requestID, relayState) = try API.samlRequest(at: try #require(reply.string("authUri")))
            let posted = try await api.postSAML(try signed(samlResponse(to: requestID, now: api.clock.now())), relayState: relayState)
            #expect(posted.status == .seeOther, "\(posted.text)")
            let location = try #require(posted.headers[.location])
            #expect(location.hasPrefix("http://localhost/done?SAMLResponse="))
            let other = try await api.completeRedirect(link: location, sessionID: "someone-else", providerID: nil)
            #expect(other.errorCode == "INVALID_IDP_RESPONSE" && other.errorMessage?.contains("sessionId") == true, "\(other.text)")
            let signedIn = try await api.completeRedirect(link: location, sessionID: "app-session", providerID: nil)
            #expect(signedIn.status == .ok && signedIn.string("providerId") == "saml.corp", "\(signedIn.text)")
            let unknown = try await api.post(Path.createAuthURI, ["providerId": "saml.nobody", "continueUri": "http://localhost/done"])
            #expect(unknown.errorCode == "INVALID_PROVIDER_ID", "\(unknown.text)")
            let foreign = try await api.post(Path.createAuthURI, ["providerId": "saml.corp", "continueUri": "https://evil.example/done"])
            #expect(foreign.errorCode == "UNAUTHORIZED_DOMAIN", "\(foreign.text)")
        }
    }

    @Test("a response to another sign-in's request, with a forged RelayState, or for another session is refused")
    func anotherRequest() async throws {
        try await withFlint { api in
            try await api.allowApp()
            try await api.configureSAML()
            let (_, relayA) = try await api.samlStart(sessionID: "a")
            let (requestB, _) = try await api.samlStart(sessionID: "b")
            let forB = try signed(samlResponse(to: requestB, now: api.clock.now()))
            // The handler tells the app; signInWithIdp refuses it too.
            let callback = try RedirectCallback(try await api.postSAML(forB, relayState: relayA))
            #expect(callback.link.isEmpty && callback.inner["firebaseError"]?.contains("InResponseTo") == true, "\(callback.inner)")
            let direct = try await api.signInWithSAMLPostBody(forB, relayState: relayA, sessionID: "a")
            #expect(direct.errorCode == "INVALID_IDP_RESPONSE" && direct.errorMessage?.contains("InResponseTo") == true, "\(direct.text)")
            let forged = try await api.postSAML(forB, relayState: "forged")
            #expect(forged.status == .badRequest && forged.text.contains("not valid or has expired"))
            let (requestC, relayC) = try await api.samlStart(sessionID: "c")
            let session = try await api.signInWithSAMLPostBody(
                try signed(samlResponse(to: requestC, now: api.clock.now())), relayState: relayC, sessionID: "not-c")
            #expect(session.errorCode == "INVALID_IDP_RESPONSE" && session.errorMessage?.contains("sessionId") == true, "\(session.text)")
        }
    }

    @Test("the verifier's refusals over HTTP: a wrapped assertion, a certificate not configured, a tampered response, an ID token")
    func attacks() async throws {
        try await withFlint { api in
            try await api.allowApp()
            try await api.configureSAML()
            let (requestID, relayState) = try await api.samlStart(sessionID: "s")
            let template = samlResponse(to: requestID, now: api.clock.now())
            let signedAssertion = try TestSigner.sign(template.assertionXML(), ids: [template.assertionID], key: TestKey.idp.get())
                .replacingOccurrences(of: #"<?xml version="1.0" encoding="UTF-8"?>"#, with: "")
            let evil = template.assertionXML(id: "_evil", nameID: "mallory@example.com")
            let cases: [(String, String)] = [
                // XSW: an unsigned assertion beside the signed one.
                (template.xml(assertion: evil + signedAssertion), "2 Assertion elements"),
                (try signed(template, key: TestKey.stranger.get()), "does not verify with any configured IdP certificate"),
                (
                    try signed(template, whole: true).replacingOccurrences(
                        of: ">alice@example.com</saml:NameID>", with: ">mallory@example.com</saml:NameID>"),
                    "does not verify"
                ),
                (template.xml(), "neither the Response nor its Assertion is signed"),
            ]
            for (xml, words) in cases {
                let reply = try await api.signInWithSAMLPostBody(xml, relayState: relayState, sessionID: "s")
                #expect(reply.errorCode == "INVALID_IDP_RESPONSE" && reply.errorMessage?.contains(words) == true, "\(words): \(reply.text)")
            }
            let token = try await api.post(Path.signInWithIdp, ["postBody": "providerId=saml.corp&id_token=x", "requestUri": "http://localhost"])
            #expect(token.errorCode == "INVALID_IDP_RESPONSE", "\(token.text)")
        }
    }

    @Test("blocking functions get the assertion's attributes as sign_in_attributes, and the provider as the sign-in method")
    func blockingFunctions() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withFlint { api in
                try await api.allowApp()
                try await api.configureSAML()
                try await api.setBlockingFunctions(["beforeCreate": function.uri("create"), "beforeSignIn": function.uri("signIn")])
                let (requestID, relayState) = try await api.samlStart(sessionID: "s")
                let reply = try await api.signInWithSAMLPostBody(
                    try signed(samlResponse(to: requestID, now: api.clock.now())), relayState: relayState, sessionID: "s")
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(function.claims.count == 2)
                for call in function.claims {
                    #expect(call["sign_in_method"] == "saml.corp", "\(call)")
                    #expect(
                        call["sign_in_attributes"]?["groups"] == ["admins", "staff"] && call["sign_in_attributes"]?["displayName"] == "Alice Example")
                }
            }
        }
    }

    @Test("the profile is read from plain attribute names, LDAP OIDs (Shibboleth, pysaml2) and claim URIs (ADFS, Entra ID)")
    func attributeNames() {
        func profile(_ attributes: [String: [String]], format: String? = nil) -> ProviderProfile {
            FederatedSignIn.credential(
                of: SAMLAssertion(
                    id: "_a", issuer: "idp", nameID: "u-1", nameIDFormat: format, attributes: attributes, sessionIndex: nil, authnInstant: Date(),
                    notOnOrAfter: Date(), inResponseTo: "_r")
            ).profile
        }
        let oids = profile(["urn:oid:0.9.2342.19200300.100.1.3": ["Ada@Example.com"], "urn:oid:2.16.840.1.113730.3.1.241": ["Ada L"]])
        #expect(oids.rawID == "u-1" && oids.email == "ada@example.com" && oids.displayName == "Ada L" && !oids.emailVerified)
        let claims = profile([
            "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": ["b@example.com"],
            "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname": ["Bo"],
            "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname": ["Ek"],
        ])
        #expect(claims.email == "b@example.com" && claims.displayName == "Bo Ek")
        #expect(profile(["mail": ["not an address"]]).email == nil)
        #expect(profile([:], format: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress").email == nil, "u-1 is no address")
    }

    @Test("an unknown or disabled provider: the start's page and signInWithIdp's OPERATION_NOT_ALLOWED")
    func disabledProvider() async throws {
        try await withFlint { api in
            try await api.allowApp()
            try await api.configureSAML()
            let unknown = try await api.handler(API.redirectQuery("saml.nobody", sessionID: "s"))
            #expect(unknown.status == .badRequest && unknown.text.contains("not configured"), "\(unknown.text)")
            let (requestID, relayState) = try await api.samlStart(sessionID: "s")
            let off = try await api.admin(.patch, "\(Path.samlIdps)/saml.corp?updateMask=enabled", body: #"{"enabled":false}"#)
            #expect(off.status == .ok, "\(off.text)")
            let page = try await api.handler(API.redirectQuery("saml.corp", sessionID: "s"))
            #expect(page.status == .badRequest && page.text.contains("disabled"), "\(page.text)")
            let reply = try await api.signInWithSAMLPostBody(
                try signed(samlResponse(to: requestID, now: api.clock.now())), relayState: relayState, sessionID: "s")
            #expect(reply.errorCode == "OPERATION_NOT_ALLOWED", "\(reply.text)")
        }
    }
}

extension SAMLSignInTests {
    @Test("after a second factor, a SAML sign-in's tokens carry what the first factor alone gives: sign_in_attributes too")
    func attributesThroughSecondFactor() async throws {
        try await withFlint { api in
            // Alice enrols a phone, then links the SAML identity in a session that passed the second factor.
            try await SAMLSecondFactorTests.enrolledSAMLUser(api, phone: "+16505550123")

            // What a SAML sign-in without a second factor puts in the ID token (appSignIn).
            let attributes = SAMLSecondFactorTests.attributes
            let challenged = try await SAMLSecondFactorTests.samlSignIn(api, session: "session-2", assertionID: "_assertion2")
            #expect(challenged["idToken"] == nil, "\(challenged.text)")
            let hint = try #require(challenged["mfaInfo"]?.arrayValue?.first?["mfaEnrollmentId"]?.stringValue)
            let done = try await api.finishWithPhone(challenged, "+16505550123")
            let finished = try TenantMFATests.firebase(done)
            #expect(finished["sign_in_attributes"] == attributes)
            #expect(finished["sign_in_provider"] == "saml.corp" && finished["identities"]?["saml.corp"] == ["alice@example.com"])
            #expect(finished["sign_in_second_factor"] == "phone" && finished["second_factor_identifier"]?.stringValue == hint)
            // The refresh token keeps them, as a direct sign-in's does.
            let refreshed = try await api.refresh(try #require(done.string("refreshToken")))
            let again = try TenantMFATests.firebase(ofToken: try #require(refreshed.string("id_token"), "\(refreshed.text)"))
            #expect(again["sign_in_attributes"] == attributes && again["sign_in_second_factor"] == "phone")
        }
    }
}
