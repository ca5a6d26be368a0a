import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Passkeys: enrolment, sign-in and withdrawal with WebAuthn verification")
struct PasskeyTests {
    @Test("enrol a passkey, list it, sign in with it (sign_in_provider passkey), and refresh the session")
    func enrolAndSignIn() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550101")
            let options = try await api.postJSON(Path.passkeyEnrollStart, ["idToken": user.idToken], origin: passkeyOrigin)
            let creation = try #require(options["credentialCreationOptions"])
            #expect(creation["rp"]?["id"]?.stringValue == "localhost")
            #expect(creation["user"]?["id"]?.stringValue == Data(user.localId.utf8).base64EncodedString(), "bytes as proto3 JSON writes them")
            #expect(creation["pubKeyCredParams"]?.arrayValue?.compactMap { $0["alg"] } == [.number(-7), .number(-257)])
            #expect(creation["authenticatorSelection"]?["residentKey"]?.stringValue == "required")
            #expect(creation["authenticatorSelection"]?["userVerification"]?.stringValue == "required")
            #expect(creation["excludeCredentials"] == .array([]))

            var authenticator = SoftwareAuthenticator()
            authenticator.userHandle = Array(user.localId.utf8)
            let enrolled = try await api.enrollPasskey(user.idToken, authenticator)
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            #expect(enrolled.string("localId") == user.localId)
            let enrolledToken = try #require(enrolled.string("idToken"))
            #expect(try JWT.payload(enrolledToken)["firebase"]?["sign_in_provider"]?.stringValue == "phone")

            let account = try #require(try await api.lookup(enrolledToken)["users"]?.arrayValue?.first)
            #expect(account["passkeyInfo"] == .array([["name": "Laptop", "credentialId": .string(authenticator.id)]]))
            let again = try await api.postJSON(Path.passkeyEnrollStart, ["idToken": enrolledToken], origin: passkeyOrigin)
            #expect(
                again["credentialCreationOptions"]?["excludeCredentials"]?.arrayValue?.first?["id"]?.stringValue
                    == Data(authenticator.credentialID).base64EncodedString())

            let requestOptions = try await api.postJSON(Path.passkeySignInStart, [:], origin: passkeyOrigin)
            #expect(requestOptions["credentialRequestOptions"]?["rpId"]?.stringValue == "localhost")
            #expect(requestOptions["credentialRequestOptions"]?["userVerification"]?.stringValue == "required")
            #expect(requestOptions["credentialRequestOptions"]?["allowCredentials"] == .array([]))

            let signedIn = try await api.signInWithPasskey(&authenticator)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("localId") == user.localId)
            let claims = try JWT.payload(try #require(signedIn.string("idToken")))
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "passkey")
            #expect(claims["sub"]?.stringValue == user.localId)
            let refreshed = try await api.refresh(try #require(signedIn.string("refreshToken")))
            #expect(refreshed.status == .ok)
            // The counter moved on: the next sign-in carries a higher one and passes too.
            #expect(try await api.signInWithPasskey(&authenticator).status == .ok)
        }
    }

    @Test("packed attestation, self and with an x5c certificate, is verified", arguments: [SoftwareAuthenticator.Format.packedSelf, .packedX5C])
    func packed(format: SoftwareAuthenticator.Format) async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550102")
            var authenticator = SoftwareAuthenticator()
            let enrolled = try await api.enrollPasskey(user.idToken, authenticator, format: format)
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            #expect(try await api.signInWithPasskey(&authenticator).status == .ok)
        }
    }

    @Test("an enrolment challenge is spent once: the same registration sent again is refused")
    func enrolmentReplay() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550103")
            let challenge = try await api.passkeyEnrollmentChallenge(user.idToken)
            let first = SoftwareAuthenticator()
            let (client, object) = try first.register(rpID: "localhost", challenge: challenge, origin: passkeyOrigin)
            let body = API.registrationBody(user.idToken, first, clientDataJSON: client, attestationObject: object)
            #expect(try await api.postJSON(Path.passkeyEnrollFinalize, body).status == .ok)
            // Another credential signed over the same challenge: the challenge is spent.
            let second = SoftwareAuthenticator()
            let (client2, object2) = try second.register(rpID: "localhost", challenge: challenge, origin: passkeyOrigin)
            let replay = try await api.postJSON(
                Path.passkeyEnrollFinalize, API.registrationBody(user.idToken, second, clientDataJSON: client2, attestationObject: object2))
            #expect(replay.status == .badRequest)
            #expect(replay.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : Invalid or expired challenge.")
        }
    }

    @Test("a sign-in assertion cannot be replayed, and a cloned authenticator (counter not increasing) is refused")
    func replayAndClone() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550104")
            var authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            var clone = authenticator
            let challenge = try await api.passkeySignInChallenge()
            let assertion = try authenticator.assert(rpID: "localhost", challenge: challenge, origin: passkeyOrigin)
            let body = API.assertionBody(authenticator, assertion)
            #expect(try await api.postJSON(Path.passkeySignInFinalize, body).status == .ok)
            let replayed = try await api.postJSON(Path.passkeySignInFinalize, body)
            #expect(replayed.errorCode == "INVALID_AUTHENTICATOR_RESPONSE")
            // The clone's counter is where the original's was: 1 again, not above the stored 1.
            let cloned = try await api.signInWithPasskey(&clone)
            #expect(cloned.status == .badRequest)
            #expect(cloned.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : Signature counter did not increase: possibly cloned authenticator.")
            #expect(try await api.signInWithPasskey(&authenticator).status == .ok)
        }
    }

    @Test("wrong origin, RP ID, ceremony type, challenge purpose or missing user verification is refused")
    func refusals() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550105")
            var authenticator = SoftwareAuthenticator()
            // Enrolment checks.
            for (origin, rpID, type, flags) in [
                ("https://evil.example", "localhost", "webauthn.create", UInt8(0x45)),
                ("http://localhost:5000", "evil.example", "webauthn.create", UInt8(0x45)),
                ("http://localhost:5000", "localhost", "webauthn.get", UInt8(0x45)),
                ("http://localhost:5000", "localhost", "webauthn.create", UInt8(0x41)),
            ] {
                let challenge = try await api.passkeyEnrollmentChallenge(user.idToken)
                let (client, object) = try authenticator.register(rpID: rpID, challenge: challenge, origin: origin, flags: flags, type: type)
                let reply = try await api.postJSON(
                    Path.passkeyEnrollFinalize, API.registrationBody(user.idToken, authenticator, clientDataJSON: client, attestationObject: object))
                #expect(reply.status == .badRequest, "\(origin) \(rpID) \(type) \(flags)")
                #expect(reply.errorCode == "INVALID_AUTHENTICATOR_RESPONSE", "\(reply.text)")
            }
            // A sign-in challenge does not enrol.
            let signInChallenge = try await api.passkeySignInChallenge()
            let (client, object) = try authenticator.register(rpID: "localhost", challenge: signInChallenge, origin: passkeyOrigin)
            let wrongPurpose = try await api.postJSON(
                Path.passkeyEnrollFinalize, API.registrationBody(user.idToken, authenticator, clientDataJSON: client, attestationObject: object))
            #expect(wrongPurpose.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : Invalid or expired challenge.")

            #expect(try await api.enrollPasskey(user.idToken, authenticator).status == .ok)
            // Sign-in checks.
            #expect(try await api.signInWithPasskey(&authenticator, origin: "https://evil.example").errorCode == "INVALID_AUTHENTICATOR_RESPONSE")
            #expect(try await api.signInWithPasskey(&authenticator, rpID: "other.example").errorCode == "INVALID_AUTHENTICATOR_RESPONSE")
            let noUV = try await api.signInWithPasskey(&authenticator, flags: SoftwareAuthenticator.userPresent)
            #expect(noUV.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : Invalid flags: user not verified.")
            let enrolChallenge = try await api.passkeyEnrollmentChallenge(user.idToken)
            let assertion = try authenticator.assert(rpID: "localhost", challenge: enrolChallenge, origin: passkeyOrigin)
            let purpose = try await api.postJSON(Path.passkeySignInFinalize, API.assertionBody(authenticator, assertion))
            #expect(purpose.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : Invalid or expired challenge.")
            // An expired challenge.
            let old = try await api.passkeySignInChallenge()
            api.clock.advance(by: .seconds(301))
            let late = try authenticator.assert(rpID: "localhost", challenge: old, origin: passkeyOrigin)
            #expect(
                try await api.postJSON(Path.passkeySignInFinalize, API.assertionBody(authenticator, late)).errorCode
                    == "INVALID_AUTHENTICATOR_RESPONSE")
            // Still fine after all that.
            #expect(try await api.signInWithPasskey(&authenticator).status == .ok)
        }
    }

    @Test("malformed bodies get Firebase's error JSON, never a crash")
    func malformed() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550106")
            let challenge = try await api.passkeyEnrollmentChallenge(user.idToken)
            let client = SoftwareAuthenticator.clientData(type: "webauthn.create", challenge: challenge, origin: passkeyOrigin)
            let bodies: [[String: Any]] = [
                ["idToken": user.idToken],
                ["idToken": user.idToken, "authenticatorRegistrationResponse": ["id": "AAAA", "response": ["clientDataJSON": "!!!"]]],
                [
                    "idToken": user.idToken,
                    "authenticatorRegistrationResponse": [
                        "id": "AAAA", "response": ["clientDataJSON": Base64URL.encode(client), "attestationObject": "oWNmbXRk"],
                    ],
                ],
                [
                    "idToken": user.idToken,
                    "authenticatorRegistrationResponse": [
                        "id": "AAAA", "type": "password", "response": ["clientDataJSON": Base64URL.encode(client), "attestationObject": "AA"],
                    ],
                ],
            ]
            for body in bodies {
                let reply = try await api.postJSON(Path.passkeyEnrollFinalize, body)
                #expect(reply.status == .badRequest, "\(reply.text)")
                #expect(reply.errorMessage != nil)
            }
            for body: [String: Any] in [
                [:], ["authenticatorAuthenticationResponse": ["id": "%%%"]],
                [
                    "authenticatorAuthenticationResponse": [
                        "id": "AAAA", "response": ["clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"],
                    ]
                ],
            ] {
                let reply = try await api.postJSON(Path.passkeySignInFinalize, body)
                #expect(reply.status == .badRequest, "\(reply.text)")
            }
            let unknown = SoftwareAuthenticator()
            var stranger = unknown
            #expect(try await api.signInWithPasskey(&stranger).errorCode == "PASSKEY_ENROLLMENT_NOT_FOUND")
            #expect(try await api.postJSON(Path.passkeyEnrollStart, ["idToken": "nope"], origin: passkeyOrigin).errorCode == "INVALID_ID_TOKEN")
        }
    }

    @Test("a credential ID belongs to one account")
    func uniqueAcrossAccounts() async throws {
        try await withFlint { api in
            let a = try await api.signIn("+16505550107")
            let b = try await api.signIn("+16505550108")
            let authenticator = SoftwareAuthenticator()
            #expect(try await api.enrollPasskey(a.idToken, authenticator).status == .ok)
            #expect(try await api.enrollPasskey(b.idToken, authenticator).errorCode == "PASSKEY_ENROLLMENT_EXISTS")
        }
    }

    @Test("deletePasskey withdraws a passkey and ends other sessions; deleting the account removes its passkeys")
    func withdrawAndDelete() async throws {
        try await withFlint { api in
            let user = try await api.signIn("+16505550109")
            var first = SoftwareAuthenticator()
            var second = SoftwareAuthenticator()
            let token = try #require(try await api.enrollPasskey(user.idToken, first).string("idToken"))
            let token2 = try #require(try await api.enrollPasskey(token, second).string("idToken"))
            let other = try await api.signInWithPasskey(&second)
            let withdrawn = try await api.postJSON(Path.update, ["idToken": token2, "deletePasskey": [first.id]])
            #expect(withdrawn.status == .ok, "\(withdrawn.text)")
            let fresh = try #require(withdrawn.string("idToken"))
            #expect(try await api.signInWithPasskey(&first).errorCode == "PASSKEY_ENROLLMENT_NOT_FOUND")
            #expect(try await api.refresh(try #require(other.string("refreshToken"))).status == .badRequest)
            let account = try #require(try await api.lookup(fresh)["users"]?.arrayValue?.first)
            #expect(account["passkeyInfo"]?.arrayValue?.map { $0["credentialId"] } == [.string(second.id)])
            // The operator's lookup lists them too; the operator withdraws with the same field.
            #expect(try await api.adminAccount(user.localId)?["passkeyInfo"]?.arrayValue?.count == 1)
            let byOperator = try await api.admin(
                Path.adminUpdate, ["localId": .string(user.localId), "deletePasskey": [.string(second.id)]])
            #expect(byOperator.status == .ok, "\(byOperator.text)")
            #expect(try await api.adminAccount(user.localId)?["passkeyInfo"] == nil)
            #expect(try await api.signInWithPasskey(&second).errorCode == "PASSKEY_ENROLLMENT_NOT_FOUND")
            // The operator's withdrawal ended the sessions too: sign in again, enrol another.
            #expect(try await api.lookup(fresh).status == .badRequest)
            let again = try await api.signIn("+16505550109")
            second = SoftwareAuthenticator()
            let fresh2 = try #require(try await api.enrollPasskey(again.idToken, second).string("idToken"))

            #expect(try await api.post(Path.delete, ["idToken": fresh2]).status == .ok)
            #expect(try await api.signInWithPasskey(&second).errorCode == "PASSKEY_ENROLLMENT_NOT_FOUND")
        }
    }

    @Test("a passkey is a first factor: an account with a second factor is challenged, not given tokens")
    func firstFactorGate() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("passkey-mfa@example.com")
            var authenticator = SoftwareAuthenticator()
            let enrolledPhone = try await api.enrollPhone(user, "+1 650-555-0110")
            let mfaToken = try #require(enrolledPhone.string("idToken"))
            // Changing how an account with second factors signs in needs a session that passed one.
            #expect(try await api.postJSON(Path.passkeyEnrollStart, ["idToken": user.idToken], origin: passkeyOrigin).errorCode != nil)
            #expect(try await api.enrollPasskey(mfaToken, authenticator).status == .ok)
            let first = try await api.signInWithPasskey(&authenticator)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["idToken"] == nil)
            #expect(first.string("mfaPendingCredential") != nil)
            #expect(first["mfaInfo"]?.arrayValue?.count == 1)
        }
    }
}
