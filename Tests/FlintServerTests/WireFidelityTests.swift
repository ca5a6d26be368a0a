import FlintCore
import FlintServer
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Testing

/// Fields as the Firebase SDKs (and the Admin SDK) send them, and answers as they expect them.
@Suite("Wire fidelity: enums, empty emails, anonymous tokens, operator links and lookups")
struct WireFidelityTests {
    @Test(
        "requestType as a proto number (the Android SDK's form) works on the v1 and v3 paths",
        arguments: [Path.sendOob, "\(Path.v3)/getOobConfirmationCode"])
    func integerRequestType(path: String) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(
                path, #"{"requestType":6,"email":"six@example.com","continueUrl":"http://localhost/done","canHandleCodeInApp":true}"#)
            #expect(reply.status == .ok, "\(reply.text)")
            let entry = try await api.oobCodes().last { $0["email"]?.stringValue == "six@example.com" }
            #expect(entry?["requestType"]?.stringValue == "EMAIL_SIGNIN")
            _ = try await api.signUp("four@example.com")
            let admin = try await api.admin(
                .post, Path.sendOob, body: #"{"requestType":1,"email":"four@example.com","returnOobLink":true}"#)
            #expect(admin.status == .ok, "\(admin.text)")
            #expect(queryItems(of: admin.string("oobLink") ?? "")["mode"] == "resetPassword")
        }
    }

    @Test(
        "an unknown or unsupported requestType is a 400 that does not echo the client's bytes",
        arguments: [
            #""NOT_A_TYPE<script>""#, "42", "6.5", "-1", #""RECOVER_EMAIL""#, "5", #""OLD_EMAIL_AGREE""#, "8", "true",
        ])
    func unknownRequestType(value: String) async throws {
        try await withFlint { api in
            let reply = try await api.postRaw(Path.sendOob, #"{"requestType":\#(value),"email":"x@example.com"}"#)
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(!reply.text.contains("NOT_A_TYPE"), "\(reply.text)")
            #expect(!reply.text.contains("<script>"))
        }
    }

    @Test("createAuthUri with a providerId the project has not configured is a 400 INVALID_PROVIDER_ID; password is fine")
    func createAuthURIProvider() async throws {
        try await withFlint { api in
            let reply = try await api.post(
                Path.createAuthURI, ["identifier": "a@example.com", "continueUri": "http://localhost/", "providerId": "google.com"])
            #expect(reply.status == .badRequest, "\(reply.text)")
            #expect(reply.errorCode == "INVALID_PROVIDER_ID")
            let password = try await api.post(
                Path.createAuthURI, ["identifier": "a@example.com", "continueUri": "http://localhost/", "providerId": "password"])
            #expect(password.status == .ok, "\(password.text)")
        }
    }

    @Test("no client input answers 501 any more: the server has no NOT_IMPLEMENTED error left")
    func noNotImplemented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/FlintServer")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("NOT_IMPLEMENTED") && !text.contains("status: 501"), "\(file)")
        }
    }

    @Test("an empty email is INVALID_EMAIL wherever an email is taken; an absent one stays MISSING_EMAIL")
    func emptyEmail() async throws {
        try await withFlint { api in
            let user = try await api.signUp("empty@example.com")
            let cases: [(String, [String: String])] = [
                (Path.sendOob, ["requestType": "EMAIL_SIGNIN", "email": "", "continueUrl": "http://localhost/", "canHandleCodeInApp": "true"]),
                (Path.sendOob, ["requestType": "PASSWORD_RESET", "email": ""]),
                (Path.signUp, ["email": "", "password": "password1"]),
                (Path.passwordSignIn, ["email": "", "password": "password1"]),
                (Path.update, ["idToken": user.idToken, "email": ""]),
                (Path.emailLinkSignIn, ["email": "", "oobCode": "x"]),
            ]
            for (path, fields) in cases {
                let reply = try await api.post(path, fields)
                #expect(reply.errorCode == "INVALID_EMAIL", "\(path): \(reply.text)")
            }
            #expect(try await api.post(Path.passwordSignIn, ["password": "password1"]).errorCode == "MISSING_EMAIL")
            let identifier = try await api.post(Path.createAuthURI, ["identifier": "", "continueUri": "http://localhost/"])
            #expect(identifier.errorCode == "INVALID_IDENTIFIER")
        }
    }

    @Test("an anonymous ID token carries provider_id anonymous at the top, also after a refresh; others do not")
    func anonymousProviderID() async throws {
        try await withFlint { api in
            try await api.patchConfig(#"{"signIn":{"anonymous":{"enabled":true}}}"#, mask: "signIn.anonymous.enabled")
            let reply = try await api.postRaw(Path.signUp, "{}")
            let token = try #require(reply.string("idToken"), "\(reply.text)")
            let claims = try JWT.payload(token)
            #expect(claims["provider_id"]?.stringValue == "anonymous")
            #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "anonymous")
            let refreshed = try await api.refresh(try #require(reply.string("refreshToken")))
            let again = try JWT.payload(try #require(refreshed.string("id_token")))
            #expect(again["provider_id"]?.stringValue == "anonymous")
            let password = try await api.signUp("named@example.com")
            #expect(try JWT.payload(password.idToken)["provider_id"] == nil)
        }
    }

    @Test("the operator's VERIFY_AND_CHANGE_EMAIL link by email (generateVerifyAndChangeEmailLink) changes the address")
    func operatorChangeEmailLink() async throws {
        try await withFlint { api in
            _ = try await api.signUp("admin-old@example.com", "password1")
            let body =
                #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","email":"admin-old@example.com","newEmail":"admin-new@example.com","returnOobLink":true}"#
            let reply = try await api.admin(.post, Path.sendOob, body: body)
            #expect(reply.status == .ok, "\(reply.text)")
            let link = try #require(reply.string("oobLink"))
            #expect(queryItems(of: link)["mode"] == "verifyAndChangeEmail")
            let code = try #require(reply.string("oobCode"))
            let unknown = try await api.admin(
                .post, Path.sendOob,
                body: #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","email":"nobody@example.com","newEmail":"n@example.com","returnOobLink":true}"#)
            #expect(unknown.errorCode == "USER_NOT_FOUND")
            let applied = try await api.post(Path.update, ["oobCode": code])
            #expect(applied.string("email") == "admin-new@example.com", "\(applied.text)")
        }
    }

    @Test("the dev oobCodes listing shows a VERIFY_AND_CHANGE_EMAIL code with the current address in email")
    func listingShowsCurrentAddress() async throws {
        try await withFlint { api in
            let user = try await api.signUp("list-old@example.com", "password1")
            _ = try await api.post(
                Path.sendOob, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user.idToken, "newEmail": "list-new@example.com"])
            let entry = try #require(try await api.oobCodes().last { $0["requestType"]?.stringValue == "VERIFY_AND_CHANGE_EMAIL" })
            #expect(entry["email"]?.stringValue == "list-old@example.com")
            #expect(entry["newEmail"]?.stringValue == "list-new@example.com")
        }
    }

    @Test("the operator's lookup answers mfaInfo and each account once, however often it is named")
    func operatorLookup() async throws {
        try await withFlint { api in
            try await api.enableMFA()
            let user = try await api.signInWithEmailLink("lookup-mfa@example.com")
            #expect(try await api.enrollPhone(user, "+1 650-555-0123").status == .ok)
            let body = #"{"localId":["\#(user.localId)","\#(user.localId)"],"email":["lookup-mfa@example.com"]}"#
            let reply = try await api.admin(.post, Path.lookup, body: body)
            #expect(reply.status == .ok, "\(reply.text)")
            let users = try #require(reply["users"]?.arrayValue)
            #expect(users.count == 1)
            #expect(users.first?["mfaInfo"]?.arrayValue?.first?["phoneInfo"]?.stringValue == "+16505550123")
        }
    }
}
