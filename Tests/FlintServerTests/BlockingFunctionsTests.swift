import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Runs `body` with a node and a stand-in function server.
private func withFunctions(_ body: @escaping @Sendable (API, StandInFunction) async throws -> Void) async throws {
    let function = StandInFunction()
    try await function.serve {
        try await withFlint { api in try await body(api, function) }
    }
}

/// An error a function throws, as firebase-functions answers it (`HttpsError`).
private func refusal(_ message: String) -> StandInFunction.Answer {
    .json(.badRequest, ["error": ["status": "INVALID_ARGUMENT", "message": .string(message)]])
}

@Suite("Blocking functions (Identity Platform's beforeCreate, beforeSignIn)")
struct BlockingFunctionsTests {
    @Test("the config takes the four triggers with absolute URIs, in Identity Platform's words otherwise")
    func config() async throws {
        try await withFlint { api in
            let badEvent = try await api.admin(
                .patch, Path.config + "?updateMask=blockingFunctions",
                body: #"{"blockingFunctions":{"triggers":{"beforeLunch":{"functionUri":"https://f.example/x"}}}}"#)
            #expect(badEvent.errorMessage == "INVALID_BLOCKING_FUNCTION : ((Event type is invalid.))", "\(badEvent.text)")
            let badURI = try await api.admin(
                .patch, Path.config + "?updateMask=blockingFunctions",
                body: #"{"blockingFunctions":{"triggers":{"beforeCreate":{"functionUri":"f/x"}}}}"#)
            #expect(badURI.errorMessage == "INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))", "\(badURI.text)")
            try await api.setBlockingFunctions(["beforeCreate": "https://f.example/create"], forward: ["idToken": true])
            let config = try await api.admin(.get, Path.config)
            #expect(config["blockingFunctions"]?["triggers"]?["beforeCreate"]?["functionUri"] == "https://f.example/create", "\(config.text)")
            #expect(config["blockingFunctions"]?["forwardInboundCredentials"]?["idToken"] == .bool(true))
        }
    }

    @Test("beforeCreate is told of the new account in a signed JWT and its changes are saved and in the tokens")
    func beforeCreateChanges() async throws {
        try await withFunctions { api, function in
            try await api.setBlockingFunctions(["beforeCreate": function.uri("create")])
            function.answer { _ in
                .json(
                    .ok,
                    ["userRecord": ["updateMask": "displayName,customClaims", "displayName": "Ada (checked)", "customClaims": ["role": "staff"]]])
            }
            let user = try await api.signUp("ada@example.com")
            let call = try #require(function.calls.first)
            #expect(function.calls.count == 1)
            #expect(call.header["alg"] == "RS256" && call.header["kid"]?.stringValue?.isEmpty == false)
            let claims = call.claims
            #expect(claims["iss"]?.stringValue == "https://securetoken.google.com/\(project)")
            #expect(claims["aud"]?.stringValue == function.uri("create") && claims["event_type"] == "beforeCreate")
            #expect(claims["sign_in_method"] == "password" && claims["sub"]?.stringValue == user.localId)
            #expect(claims["user_record"]?["uid"]?.stringValue == user.localId && claims["user_record"]?["email"] == "ada@example.com")
            #expect(claims["user_record"]?["metadata"]?["creation_time"]?.intValue != nil)
            #expect(claims["event_id"]?.stringValue?.isEmpty == false && claims["ip_address"] != nil && claims["user_agent"] != nil)
            #expect(claims["user_record"]?["password_hash"] == nil)
            let token = unverifiedClaims(user.idToken)
            #expect(token["name"] == "Ada (checked)" && token["role"] == "staff", "\(token)")
            let account = try #require(try await api.adminAccount(user.localId))
            #expect(account["displayName"] == "Ada (checked)")
            // A returning sign-in creates nothing: beforeCreate is not called again.
            _ = try await api.signInWithPassword("ada@example.com", "correct horse")
            #expect(function.calls.count == 1)
            // beforeSignIn is told the client's user agent and locale, as the request sent them.
            try await api.setBlockingFunctions(["beforeSignIn": function.uri("signin")])
            function.answer { _ in .json(.ok, [:]) }
            let signedIn = try await api.signInWithPassword(
                "ada@example.com", "correct horse", headers: [.userAgent: "FlintTest/1.0", .firebaseLocale: "tr"])
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            let signIn = try #require(function.claims.last)
            #expect(signIn["event_type"] == "beforeSignIn" && signIn["user_agent"] == "FlintTest/1.0" && signIn["locale"] == "tr", "\(signIn)")
        }
    }

    @Test("a beforeCreate refusal answers BLOCKING_FUNCTION_ERROR_RESPONSE with the function's message, and nothing is saved")
    func beforeCreateRefuses() async throws {
        try await withFunctions { api, function in
            try await api.setBlockingFunctions(["beforeCreate": function.uri("create")])
            function.answer { claims in
                claims["user_record"]?["email"]?.stringValue?.hasSuffix("@blocked.example") == true ? refusal("Unauthorized email") : .json(.ok, [:])
            }
            let refused = try await api.post(Path.signUp, ["email": "eve@blocked.example", "password": "correct horse"])
            #expect(refused.status == .badRequest && refused.errorCode == "BLOCKING_FUNCTION_ERROR_RESPONSE", "\(refused.text)")
            #expect(refused.errorMessage?.contains(#""message":"Unauthorized email""#) == true, "\(refused.text)")
            let found = try await api.admin(Path.adminLookup, ["email": ["eve@blocked.example"]])
            #expect(found["users"] == nil, "\(found.text)")
            // Anonymous sign-ups call no function.
            try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous.enabled")
            let anonymous = try await api.post(Path.signUp, [:])
            #expect(anonymous.status == .ok && function.calls.count == 1, "\(anonymous.text)")
        }
    }

    @Test("beforeSignIn: session claims in this session's tokens (and its refreshes), a disabled account, and beforeSignIn over beforeCreate")
    func beforeSignIn() async throws {
        try await withFunctions { api, function in
            try await api.setBlockingFunctions(["beforeCreate": function.uri("create"), "beforeSignIn": function.uri("signin")])
            function.answer { claims in
                switch claims["event_type"]?.stringValue {
                case "beforeCreate": .json(.ok, ["userRecord": ["updateMask": "displayName", "displayName": "from create"]])
                default:
                    // beforeSignIn is told of the account as beforeCreate left it.
                    claims["user_record"]?["email"] == "mal@example.com"
                        ? .json(.ok, ["userRecord": ["updateMask": "disabled", "disabled": true]])
                        : .json(
                            .ok,
                            [
                                "userRecord": [
                                    "updateMask": "sessionClaims,photoUrl", "sessionClaims": ["sessionRole": "vip"],
                                    "photoUrl": .string(
                                        "https://img.example/\(claims["user_record"]?["display_name"]?.stringValue == "from create" ? "ok" : "no")"),
                                ]
                            ])
                }
            }
            let user = try await api.signUp("kim@example.com")
            #expect(function.claims.map { $0["event_type"]?.stringValue } == ["beforeCreate", "beforeSignIn"])
            let token = unverifiedClaims(user.idToken)
            #expect(token["sessionRole"] == "vip" && token["picture"] == "https://img.example/ok" && token["name"] == "from create", "\(token)")
            let refreshed = try await api.refresh(user.refreshToken)
            #expect(unverifiedClaims(try #require(refreshed.string("id_token")))["sessionRole"] == "vip", "\(refreshed.text)")
            // The claims belong to the session, not the account.
            #expect(try await api.adminAccount(user.localId)?["customAttributes"] == nil)

            let disabled = try await api.post(Path.signUp, ["email": "mal@example.com", "password": "correct horse"])
            #expect(disabled.errorCode == "USER_DISABLED", "\(disabled.text)")
            let found = try await api.admin(Path.adminLookup, ["email": ["mal@example.com"]])
            #expect(found["users"]?.arrayValue?.first?["disabled"] == .bool(true), "\(found.text)")
        }
    }

    @Test("a function that answers garbage or fails to answer stops the sign-in with a clear error; phone codes stay unspent")
    func failures() async throws {
        try await withFunctions { api, function in
            try await api.setBlockingFunctions(["beforeCreate": function.uri("create")])
            function.answer { _ in .text("<html>oops</html>") }
            let garbage = try await api.post(Path.signUp, ["email": "zed@example.com", "password": "correct horse"])
            #expect(garbage.status == .internalServerError && garbage.errorCode == "BLOCKING_FUNCTION_ERROR_RESPONSE", "\(garbage.text)")
            function.answer { _ in .json(.ok, ["userRecord": ["updateMask": "customClaims", "customClaims": ["iss": "me"]]]) }
            let reserved = try await api.post(Path.signUp, ["email": "zed@example.com", "password": "correct horse"])
            #expect(reserved.errorMessage?.contains("reserved") == true, "\(reserved.text)")

            function.answer { _ in refusal("No new numbers today") }
            let number = "+16505550199"
            let session = try await api.sendCode(number)
            let code = try await api.pendingCode(for: number)
            let blocked = try await api.verify(session, code: code)
            #expect(blocked.errorCode == "BLOCKING_FUNCTION_ERROR_RESPONSE", "\(blocked.text)")
            // Nothing of the refused sign-in was kept: the same code signs in once the function lets it.
            function.answer { _ in .json(.ok, [:]) }
            let allowed = try await api.verify(session, code: code)
            #expect(allowed.status == .ok && allowed["isNewUser"] == .bool(true), "\(allowed.text)")
        }
    }

    @Test("a function that does not answer in time stops the operation within the timeout")
    func timeout() async throws {
        try await withFunctions { api, function in
            try await api.setBlockingFunctions(["beforeCreate": function.uri("create")])
            function.answer { _ in .hang }
            let started = ContinuousClock.now
            let reply = try await api.post(Path.signUp, ["email": "slow@example.com", "password": "correct horse"])
            #expect(reply.status == .internalServerError && reply.errorCode == "BLOCKING_FUNCTION_ERROR_RESPONSE", "\(reply.text)")
            #expect(ContinuousClock.now - started < .seconds(15))
            let found = try await api.admin(Path.adminLookup, ["email": ["slow@example.com"]])
            #expect(found["users"] == nil, "\(found.text)")
        }
    }

    @Test("beforeSendEmail and beforeSendSms: told of the email or text, a refusal sends and keeps nothing")
    func deliveries() async throws {
        try await withFunctions { api, function in
            try await api.setBlockingFunctions(["beforeSendEmail": function.uri("email"), "beforeSendSms": function.uri("sms")])
            function.answer { claims in
                if claims["email"] == "no@example.com" || claims["phone_number"] == "+16505550111" { return refusal("Not to this one") }
                return .json(.ok, [:])
            }
            let refusedLink = try await api.sendSignInLink("no@example.com")
            #expect(refusedLink.errorCode == "BLOCKING_FUNCTION_ERROR_RESPONSE", "\(refusedLink.text)")
            let (codes, outbox) = (try await api.oobCodes(), try await api.outbox())
            #expect(codes.isEmpty && outbox.isEmpty)
            let sent = try await api.sendSignInLink("yes@example.com")
            #expect(sent.status == .ok, "\(sent.text)")
            let emailCall = try #require(function.claims.last)
            #expect(
                emailCall["event_type"] == "beforeSendEmail" && emailCall["email_type"] == "EMAIL_SIGN_IN" && emailCall["email"] == "yes@example.com")
            // A verification email is not one Identity Platform calls beforeSendEmail for.
            let calls = function.calls.count
            let user = try await api.signUp("kim@example.com")
            let verify = try await api.post("\(Path.v1)/accounts:sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": user.idToken])
            #expect(verify.status == .ok && function.calls.count == calls, "\(verify.text)")

            let refusedText = try await api.post(Path.send, ["phoneNumber": "+16505550111"])
            #expect(refusedText.errorCode == "BLOCKING_FUNCTION_ERROR_RESPONSE", "\(refusedText.text)")
            let pending = try await api.pendingCodes()
            #expect(pending.isEmpty)
            _ = try await api.sendCode("+16505550112")
            let smsCall = try #require(function.claims.last)
            #expect(
                smsCall["event_type"] == "beforeSendSms" && smsCall["sms_type"] == "SIGN_IN_OR_SIGN_UP" && smsCall["phone_number"] == "+16505550112")
        }
    }

    @Test("with a second factor, beforeSignIn runs after it, before the tokens, not at the first factor")
    func afterSecondFactor() async throws {
        try await withFunctions { api, function in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("mfa@example.com")
            _ = try API.signedIn(try await api.enrollPhone(user, "+16505550123"), localId: user.localId)
            try await api.setBlockingFunctions(["beforeSignIn": function.uri("signin")])
            function.answer { _ in .json(.ok, ["userRecord": ["updateMask": "sessionClaims", "sessionClaims": ["checked": true]]]) }
            _ = try await api.sendSignInLink("mfa@example.com")
            let link = try await api.oobCode(for: "mfa@example.com")
            let first = try await api.post(Path.emailLinkSignIn, ["email": "mfa@example.com", "oobCode": link.code])
            #expect(first["idToken"] == nil && function.calls.isEmpty, "\(first.text)")
            let done = try await api.finishWithPhone(first, "+16505550123")
            #expect(done.status == .ok, "\(done.text)")
            #expect(function.claims.map { $0["event_type"]?.stringValue } == ["beforeSignIn"])
            #expect(function.claims.first?["user_record"]?["multi_factor"]?["enrolled_factors"]?.arrayValue?.count == 1)
            #expect(unverifiedClaims(try #require(done.string("idToken")))["checked"] == .bool(true))
        }
    }

    @Test("a federated sign-in tells the functions the provider's profile, and its credentials as far as forwarding allows")
    func federated() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withIdentityProviders { api, issuer in
                try await api.setBlockingFunctions(["beforeCreate": function.uri("create")], forward: ["idToken": true])
                let token = try issuer.token(googleClaims(api))
                let reply = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token), ("access_token", "google-access")])
                #expect(reply.status == .ok, "\(reply.text)")
                let call = try #require(function.claims.first)
                #expect(call["sign_in_method"] == "google.com" && call["oauth_id_token"]?.stringValue == token)
                #expect(call["oauth_access_token"] == nil)
                let info = try JSONValue(parsing: Array((call["raw_user_info"]?.stringValue ?? "").utf8))
                #expect(info["sub"] != nil && call["user_record"]?["provider_data"]?.arrayValue?.first?["provider_id"] == "google.com")
            }
        }
    }

    @Test("after a second factor, beforeSignIn is told the federated first factor's profile and forwarded credentials")
    func federatedAfterSecondFactor() async throws {
        let function = StandInFunction()
        try await function.serve {
            try await withIdentityProviders { api, issuer in
                try await api.enableMFA()
                let user = try await api.signInWithEmailLink("ada@gmail.com")
                _ = try API.signedIn(try await api.enrollPhone(user, "+16505550123"), localId: user.localId)
                try await api.setBlockingFunctions(["beforeSignIn": function.uri("signin")], forward: ["idToken": true])
                let token = try issuer.token(googleClaims(api))
                let first = try await api.signInWithIdp([("providerId", "google.com"), ("id_token", token), ("access_token", "google-access")])
                #expect(first["idToken"] == nil && function.calls.isEmpty, "\(first.text)")
                let done = try await api.finishWithPhone(first, "+16505550123")
                #expect(done.status == .ok, "\(done.text)")
                #expect(function.claims.map { $0["event_type"]?.stringValue } == ["beforeSignIn"])
                let call = try #require(function.claims.first)
                #expect(call["sign_in_method"] == "google.com" && call["oauth_id_token"]?.stringValue == token, "\(call)")
                #expect(call["oauth_access_token"] == nil, "not forwarded, so not carried either")
                let info = try JSONValue(parsing: Array((call["raw_user_info"]?.stringValue ?? "").utf8))
                #expect(info["sub"] == "1093" && info["email"] == "ada@gmail.com")
            }
        }
    }

    @Test("an answer's claims: at most 1,000 characters each and together, no reserved name, session claims for beforeSignIn only")
    func verdictLimits() throws {
        func verdict(_ record: JSONValue, _ trigger: ProjectConfig.BlockingTrigger = .beforeSignIn) throws(BlockingVerdict.Unusable)
            -> BlockingVerdict
        {
            try BlockingVerdict(answer: ["userRecord": record], trigger: trigger)
        }
        // {"k":"…"} is 8 characters around the value.
        let fits: JSONValue = ["k": .string(String(repeating: "x", count: 992))]
        let over: JSONValue = ["k": .string(String(repeating: "x", count: 993))]
        #expect(throws: Never.self) { try verdict(["updateMask": "customClaims", "customClaims": fits]) }
        #expect(throws: BlockingVerdict.Unusable.self) { try verdict(["updateMask": "customClaims", "customClaims": over]) }
        #expect(throws: BlockingVerdict.Unusable.self) { try verdict(["updateMask": "sessionClaims", "sessionClaims": over]) }
        let half: JSONValue = ["a": .string(String(repeating: "x", count: 600))]
        let otherHalf: JSONValue = ["b": .string(String(repeating: "y", count: 600))]
        #expect(throws: BlockingVerdict.Unusable.self) {
            try verdict(["updateMask": "customClaims,sessionClaims", "customClaims": half, "sessionClaims": otherHalf])
        }
        #expect(throws: BlockingVerdict.Unusable.self) { try verdict(["updateMask": "sessionClaims", "sessionClaims": ["nonce": "n"]]) }
        #expect(throws: BlockingVerdict.Unusable.self) {
            try verdict(["updateMask": "sessionClaims", "sessionClaims": ["role": "x"]], .beforeCreate)
        }
        #expect(throws: BlockingVerdict.Unusable.self) { try verdict(["updateMask": "passwordHash", "passwordHash": "x"]) }
    }
}
