import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

@Suite("App verification: verifyClient, silent pushes and enforcement")
struct AppVerificationTests {
    @Test("verifyClient answers a receipt and a string timeout, and records the silent push with the receipt's secret")
    func verifyClientPushes() async throws {
        try await withFlint { api in
            let reply = try await api.post(Path.verifyClient, ["appToken": "0A1B2C3D4E5F60718293A4B5C6D7E8F9", "isSandbox": "true"])
            #expect(reply.status == .ok, "\(reply.text)")
            let receipt = try #require(reply.string("receipt"))
            #expect(reply["suggestedTimeout"] == .string("5"))
            let push = try #require(try await api.pushes().first)
            #expect(push["appToken"]?.stringValue == "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
            #expect(push["environment"]?.stringValue == "sandbox")
            #expect(push["payload"]?["aps"]?["content-available"]?.intValue == 1)
            let auth = try #require(push["payload"]?["com.google.firebase.auth"])
            #expect(auth["receipt"]?.stringValue == receipt)
            let secret = try #require(auth["secret"]?.stringValue)
            #expect(secret.count >= 40 && !receipt.contains(secret))
            // The push is not an SMS code.
            #expect(try await api.pendingCodes().isEmpty)
            // `?appToken=` narrows the listing to one device (any case).
            let mine = try await api.call(.get, Path.pushes + "?appToken=0A1B2C3D4E5F60718293A4B5C6D7E8F9")
            #expect(mine["pushes"]?.arrayValue?.count == 1)
            let other = try await api.call(.get, Path.pushes + "?appToken=ffff")
            #expect(other["pushes"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("the v3 relyingparty/verifyClient path works, and isSandbox defaults to production")
    func legacyPath() async throws {
        try await withFlint { api in
            let reply = try await api.post("\(Path.v3)/verifyClient", ["appToken": "00112233445566778899aabbccddeeff"])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(try await api.pushes().first?["environment"]?.stringValue == "production")
        }
    }

    @Test(
        "verifyClient refuses bad input with Firebase errors",
        arguments: [
            ErrorCase("no appToken", body: "{}", code: "MISSING_IOS_APP_TOKEN"),
            ErrorCase("empty appToken", body: #"{"appToken":""}"#, code: "MISSING_IOS_APP_TOKEN"),
            ErrorCase("not hex", body: #"{"appToken":"not-a-token-zzzz"}"#, code: "INVALID_APP_CREDENTIAL"),
            ErrorCase("too short", body: #"{"appToken":"0a1b"}"#, code: "INVALID_APP_CREDENTIAL"),
            ErrorCase("odd length", body: #"{"appToken":"0a1b2c3d4e5f60718"}"#, code: "INVALID_APP_CREDENTIAL"),
            ErrorCase("isSandbox not a boolean", body: #"{"appToken":"0a1b2c3d4e5f6071","isSandbox":[1]}"#, code: "Invalid JSON payload received."),
        ])
    func verifyClientErrors(_ row: ErrorCase) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.verifyClient, row.body)
            #expect(reply.status.code == row.status, "\(reply.text)")
            #expect(reply.errorMessage?.hasPrefix(row.code) == true, "\(reply.text)")
            #expect(try await api.pushes().isEmpty)
        }
    }

    @Test("verifyClient needs an API key, and without an APNs sender (production, no key) it sends clients to the web challenge")
    func verifyClientWithoutSender() async throws {
        try await withFlint { api in
            let reply = try await api.call(.post, Path.verifyClient, body: #"{"appToken":"0a1b2c3d4e5f6071"}"#)
            #expect(reply.status == .forbidden)
        }
        try await withFlint(configure: {
            $0.devMode = false; $0.adminToken = "admin"
        }) { api in
            let reply = try await api.post(Path.verifyClient, ["appToken": "0a1b2c3d4e5f6071"])
            #expect(reply.errorCode == "INVALID_APP_CREDENTIAL", "\(reply.text)")
        }
    }

    @Test("verifyClient (each call a push) is limited to 60 an hour per client IP")
    func verifyClientLimited() async throws {
        try await withFlint(configure: { $0.trustForwardedFor = true }) { api in
            let first: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.7"]
            for i in 0..<60 {
                let reply = try await api.post(Path.verifyClient, ["appToken": "0a1b2c3d4e5f6071"], headers: first)
                #expect(reply.status == .ok, "call \(i + 1): \(reply.text)")
            }
            let over = try await api.post(Path.verifyClient, ["appToken": "0a1b2c3d4e5f6071"], headers: first)
            #expect(over.errorCode == "TOO_MANY_ATTEMPTS_TRY_LATER", "\(over.text)")
            let other = try await api.post(Path.verifyClient, ["appToken": "0a1b2c3d4e5f6071"], headers: [.init("X-Forwarded-For")!: "203.0.113.8"])
            #expect(other.status == .ok)
            api.clock.advance(by: .seconds(3600))
            #expect(try await api.post(Path.verifyClient, ["appToken": "0a1b2c3d4e5f6071"], headers: first).status == .ok)
            #expect(try await api.pushes().count == 62)
        }
    }

    @Test("under ENFORCE a code for a real number needs a proof: none is MISSING_APP_CREDENTIAL, a pushed secret passes")
    func enforceReceipt() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let bare = try await api.send(alice)
            #expect(bare.errorCode == "MISSING_APP_CREDENTIAL", "\(bare.text)")
            #expect(try await api.pendingCodes().isEmpty)

            let credential = try await api.appCredential()
            let sent = try await api.send(alice, ["iosReceipt": credential.receipt, "iosSecret": credential.secret])
            #expect(sent.status == .ok, "\(sent.text)")
            let code = try await api.pendingCode(for: alice)
            _ = try API.signedIn(try await api.verify(try #require(sent.string("sessionInfo")), code: code))
        }
    }

    @Test("under ENFORCE bad receipts are INVALID_APP_CREDENTIAL and half a pair is MISSING_APP_CREDENTIAL")
    func badReceipts() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let credential = try await api.appCredential()
            let other = try await api.appCredential(appToken: "ffeeddccbbaa99887766554433221100")
            let cases: [([String: String], String)] = [
                (["iosReceipt": credential.receipt, "iosSecret": other.secret], "INVALID_APP_CREDENTIAL"),
                (["iosReceipt": "garbage", "iosSecret": credential.secret], "INVALID_APP_CREDENTIAL"),
                (["iosReceipt": credential.receipt + "A", "iosSecret": credential.secret], "INVALID_APP_CREDENTIAL"),
                (["iosReceipt": credential.receipt], "MISSING_APP_CREDENTIAL"),
                (["iosSecret": credential.secret], "MISSING_APP_CREDENTIAL"),
                (["iosReceipt": credential.receipt, "iosSecret": ""], "MISSING_APP_CREDENTIAL"),
            ]
            for (proof, code) in cases {
                let reply = try await api.send(alice, proof)
                #expect(reply.errorCode == code, "\(proof.keys.sorted()): \(reply.text)")
            }
            #expect(try await api.pendingCodes().isEmpty)
        }
    }

    @Test("a receipt serves five code requests within an hour, then it is used up or expired")
    func receiptBounds() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let credential = try await api.appCredential()
            let proof = ["iosReceipt": credential.receipt, "iosSecret": credential.secret]
            for i in 0..<5 {
                let reply = try await api.send(i % 2 == 0 ? alice : bob, proof)
                #expect(reply.status == .ok, "use \(i + 1): \(reply.text)")
            }
            let sixth = try await api.send(alice, proof)
            #expect(sixth.errorMessage == "INVALID_APP_CREDENTIAL : This receipt has been used up; call verifyClient again.")

            let fresh = try await api.appCredential()
            api.clock.advance(by: .seconds(3601))
            let late = try await api.send(alice, ["iosReceipt": fresh.receipt, "iosSecret": fresh.secret])
            #expect(late.errorCode == "INVALID_APP_CREDENTIAL", "\(late.text)")
        }
    }

    @Test("a receipt issued by one node is checked by another sharing the store, and its uses are counted across both")
    func acrossNodes() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credential = try await TestNode.make(path: path).run { api in
            try await api.setAppVerification("ENFORCE")
            let credential = try await api.appCredential()
            for _ in 0..<3 {
                let reply = try await api.send(alice, ["iosReceipt": credential.receipt, "iosSecret": credential.secret])
                #expect(reply.status == .ok, "\(reply.text)")
            }
            return credential
        }
        try await TestNode.make(path: path).run { api in
            let proof = ["iosReceipt": credential.receipt, "iosSecret": credential.secret]
            for _ in 0..<2 {
                let reply = try await api.send(bob, proof)
                #expect(reply.status == .ok, "\(reply.text)")
            }
            let usedUp = try await api.send(bob, proof)
            #expect(usedUp.errorCode == "INVALID_APP_CREDENTIAL", "\(usedUp.text)")
        }
    }

    @Test("a receipt from another project's server is refused")
    func otherServer() async throws {
        let foreign = try await withFlint { api in try await api.appCredential() }
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            let reply = try await api.send(alice, ["iosReceipt": foreign.receipt, "iosSecret": foreign.secret])
            #expect(reply.errorCode == "INVALID_APP_CREDENTIAL", "\(reply.text)")
        }
    }

    @Test("fictional test numbers never need a proof, even under ENFORCE")
    func fictionalNumbers() async throws {
        try await withFlint { api in
            try await api.setAppVerification("ENFORCE")
            try await api.setTestNumbers(["+16505551234": "123456"])
            let reply = try await api.send("+16505551234")
            #expect(reply.status == .ok, "\(reply.text)")
            _ = try API.signedIn(try await api.verify(try #require(reply.string("sessionInfo")), code: "123456"))
        }
    }

    @Test("dev mode defaults to OFF; production mode defaults to ENFORCE; OFF in the config turns it off in production")
    func defaults() async throws {
        try await withFlint { api in
            let reply = try await api.send(alice)
            #expect(reply.status == .ok, "\(reply.text)")
        }
        // Production mode with an SMS sender (the dev outbox stands in for a provider).
        let production = try await TestNode.make(sms: DevOutboxSender()) {
            $0.devMode = false
            $0.adminToken = "admin"
        }
        try await production.run { api in
            let reply = try await api.send(alice)
            #expect(reply.errorCode == "MISSING_APP_CREDENTIAL", "\(reply.text)")
            let patch = try await api.call(
                .patch, Path.config + "?updateMask=signIn.phoneNumber.appVerification",
                body: #"{"signIn":{"phoneNumber":{"appVerification":"OFF"}}}"#, headers: [.authorization: "Bearer admin"])
            #expect(patch.status == .ok, "\(patch.text)")
            #expect(patch["signIn"]?["phoneNumber"]?["appVerification"]?.stringValue == "OFF")
            let sent = try await api.send(alice)
            #expect(sent.status == .ok, "\(sent.text)")
        }
    }

    @Test("the policy is validated", arguments: [#""MAYBE""#, "true", #""enforce""#])
    func policyValidated(_ value: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(
                .patch, Path.config + "?updateMask=signIn.phoneNumber.appVerification",
                body: #"{"signIn":{"phoneNumber":{"appVerification":\#(value)}}}"#)
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessage == "INVALID_CONFIG : signIn.phoneNumber.appVerification must be one of ENFORCE, OFF")
        }
    }

    @Test("the SMS second-factor starts check the proof inside phoneEnrollmentInfo and phoneSignInInfo")
    func secondFactors() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            try await api.setAppVerification("ENFORCE")
            let user = try await api.signInWithEmailLink("mfa@example.com")
            let phone = "+16505550111"
            let bare = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": ["phoneNumber": phone]])
            #expect(bare.errorCode == "MISSING_APP_CREDENTIAL", "\(bare.text)")
            let credential = try await api.appCredential()
            let proof = ["phoneNumber": phone, "iosReceipt": credential.receipt, "iosSecret": credential.secret]
            let start = try await api.postJSON(Path.enrollStart, ["idToken": user.idToken, "phoneEnrollmentInfo": proof])
            let sessionInfo = try #require(start["phoneSessionInfo"]?["sessionInfo"]?.stringValue, "\(start.text)")
            let code = try await api.pendingCode(for: phone)
            let enrolled = try await api.postJSON(
                Path.enrollFinalize, ["idToken": user.idToken, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
            #expect(enrolled.status == .ok, "\(enrolled.text)")
            let enrolledToken = try #require(enrolled.string("idToken"))
            let enrollmentID = try #require(JWT.payload(enrolledToken)["firebase"]?["second_factor_identifier"]?.stringValue)

            let password = try await api.post(Path.update, ["idToken": try #require(enrolled.string("idToken")), "password": "password9"])
            #expect(password.status == .ok, "\(password.text)")
            let first = try await api.signInWithPassword("mfa@example.com", "password9")
            let pending = try #require(first.string("mfaPendingCredential"), "\(first.text)")
            let masked = ["phoneNumber": "+*******0111"]
            let refused = try await api.postJSON(
                Path.mfaStart, ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "phoneSignInInfo": masked])
            #expect(refused.errorCode == "MISSING_APP_CREDENTIAL", "\(refused.text)")
            let signInProof = masked.merging(["iosReceipt": credential.receipt, "iosSecret": credential.secret]) { $1 }
            let started = try await api.postJSON(
                Path.mfaStart, ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "phoneSignInInfo": signInProof])
            #expect(started["phoneResponseInfo"]?["sessionInfo"]?.stringValue != nil, "\(started.text)")
        }
    }

    @Test("recaptchaConfig answers OFF for the phone provider, so SDKs take the classic flow")
    func recaptchaConfig() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, API.keyed(Path.recaptchaConfig + "?clientType=CLIENT_TYPE_IOS&version=RECAPTCHA_ENTERPRISE"))
            #expect(reply.status == .ok, "\(reply.text)")
            let states = try #require(reply["recaptchaEnforcementState"]?.arrayValue)
            #expect(states.contains(["provider": "PHONE_PROVIDER", "enforcementState": "OFF"]))
            #expect(states.contains(["provider": "EMAIL_PASSWORD_PROVIDER", "enforcementState": "OFF"]))
            #expect(reply["recaptchaKey"] == nil)
        }
    }

    @Test(
        "recaptchaConfig validates its query",
        arguments: [
            ("", "MISSING_CLIENT_TYPE"), ("?clientType=CLIENT_TYPE_IOS", "MISSING_RECAPTCHA_VERSION"),
            ("?clientType=CLIENT_TYPE_TOASTER&version=RECAPTCHA_ENTERPRISE", "INVALID_ARGUMENT"),
            ("?clientType=CLIENT_TYPE_IOS&version=V2", "INVALID_RECAPTCHA_VERSION"),
        ])
    func recaptchaConfigErrors(_ query: String, _ code: String) async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, API.keyed(Path.recaptchaConfig + query))
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == code, "\(reply.text)")
        }
        try await withFlint { api in
            let reply = try await api.call(.get, Path.recaptchaConfig + "?clientType=CLIENT_TYPE_IOS&version=RECAPTCHA_ENTERPRISE")
            #expect(reply.status == .forbidden)
        }
    }

    @Test("getProjectConfig answers the project and its authorized domains")
    func projectConfig() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, API.keyed("\(Path.v1)/projects"))
            #expect(reply.status == .ok)
            #expect(reply.string("projectId") == project)
            #expect(reply["authorizedDomains"] == ["localhost"])
        }
    }
}
