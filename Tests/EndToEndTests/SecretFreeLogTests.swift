import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Everything a client or operator held while driving a node: none of it may reach the node's log.
private struct Secrets {
    private(set) var values: [(what: String, value: String)] = []

    mutating func add(_ what: String, _ value: Any?) {
        guard let text = value as? String, !text.isEmpty else { return }
        values.append((what, text))
    }

    /// The values found in `log`: a short value (a code) only where it stands alone, not inside a longer word.
    func leaks(in log: String) -> [String] {
        values.filter { entry in
            guard entry.value.count <= 12 else { return log.contains(entry.value) }
            var rest = log[...]
            while let range = rest.range(of: entry.value) {
                let before = range.lowerBound == log.startIndex ? nil : log[log.index(before: range.lowerBound)]
                let after = range.upperBound == log.endIndex ? nil : log[range.upperBound]
                if !(before?.isLetter == true || before?.isNumber == true) && !(after?.isLetter == true || after?.isNumber == true) { return true }
                rest = log[range.upperBound...]
            }
            return false
        }.map { "\($0.what) (\($0.value.prefix(4))…)" }
    }
}

/// `flint serve --log-level trace` through every flow that handles a secret: the log holds none of them.
@Suite("logs never contain secrets", .serialized)
struct SecretFreeLogTests {
    @Test("at trace level, text and JSON: no code, link, password, token, admin credential or master key in the log", arguments: ["text", "json"])
    func traceLogHoldsNoSecret(format: String) async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        var secrets = Secrets()
        let masterKey = newMasterKeyText()
        let keyFile = data + ".key"
        try Data(masterKey.utf8).write(to: URL(fileURLWithPath: keyFile))
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        secrets.add("master key", masterKey)
        let (created, createdOutput) = try await runFlint(["admin", "tokens", "create", "log-test", "--data", data])
        #expect(created == 0, "\(createdOutput)")
        let named = try #require(createdOutput.split(separator: "\n").last.map(String.init))
        secrets.add("named admin credential", named)
        let bootstrap = "bootstrap-" + UUID().uuidString
        secrets.add("admin token", bootstrap)
        let flint = try await FlintProcess(
            dataDirectory: data,
            extraArguments: [
                "--log-level", "trace", "--log-format", format, "--master-key-file", keyFile, "--admin-token", bootstrap, "--password-hash-cost",
                "10",
            ])
        var stopped = false
        defer { if !stopped { flint.terminate() } }
        let drive = Driver(client: client, flint: flint, admin: bootstrap)

        #expect(
            try await drive.admin(
                .PATCH, "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=mfa",
                #"{"mfa":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}"#) == 200)

        // Phone sign-in on a real number: the code goes to the dev outbox.
        let (_, sent) = try await drive.post("v1/accounts:sendVerificationCode", ["phoneNumber": "+16505550142"])
        secrets.add("sessionInfo", sent["sessionInfo"])
        let code = try await drive.smsCode("+16505550142")
        secrets.add("SMS code", code)
        let (phoneStatus, phone) = try await drive.post(
            "v1/accounts:signInWithPhoneNumber", ["sessionInfo": sent["sessionInfo"] ?? "", "code": code])
        #expect(phoneStatus == 200)
        secrets.add("phone ID token", phone["idToken"])
        secrets.add("phone refresh token", phone["refreshToken"])

        // Email link.
        let linkEmail = "link-log@example.com"
        #expect(
            try await drive.post(
                "v1/accounts:sendOobCode",
                [
                    "requestType": "EMAIL_SIGNIN", "email": linkEmail, "continueUrl": "http://localhost/", "canHandleCodeInApp": true,
                ]
            ).0 == 200)
        let (oobCode, oobLink) = try await drive.oobCode(for: linkEmail)
        secrets.add("oob code", oobCode)
        secrets.add("oob link", oobLink)
        let (linkStatus, linked) = try await drive.post("v1/accounts:signInWithEmailLink", ["email": linkEmail, "oobCode": oobCode])
        #expect(linkStatus == 200)
        secrets.add("email link ID token", linked["idToken"])
        secrets.add("email link refresh token", linked["refreshToken"])

        // Password sign-up, email verification, sign-in, SMS second factor enrolment.
        let email = "password-log@example.com"
        let password = "pw-" + UUID().uuidString
        secrets.add("password", password)
        let (upStatus, up) = try await drive.post("v1/accounts:signUp", ["email": email, "password": password])
        #expect(upStatus == 200)
        secrets.add("sign-up ID token", up["idToken"])
        secrets.add("sign-up refresh token", up["refreshToken"])
        #expect(try await drive.post("v1/accounts:sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": up["idToken"] ?? ""]).0 == 200)
        let (verifyCode, verifyLink) = try await drive.oobCode(for: email)
        secrets.add("verification code", verifyCode)
        secrets.add("verification link", verifyLink)
        #expect(try await drive.post("v1/accounts:update", ["oobCode": verifyCode]).0 == 200)
        let (inStatus, signedIn) = try await drive.post("v1/accounts:signInWithPassword", ["email": email, "password": password])
        #expect(inStatus == 200)
        let idToken = try #require(signedIn["idToken"] as? String)
        secrets.add("password ID token", idToken)
        secrets.add("password refresh token", signedIn["refreshToken"])
        let (startStatus, start) = try await drive.post(
            "v2/accounts/mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": "+16505550143"]])
        #expect(startStatus == 200)
        let enrolSession = (start["phoneSessionInfo"] as? [String: Any])?["sessionInfo"]
        secrets.add("enrolment sessionInfo", enrolSession)
        let enrolCode = try await drive.smsCode("+16505550143")
        secrets.add("enrolment code", enrolCode)
        let (finStatus, fin) = try await drive.post(
            "v2/accounts/mfaEnrollment:finalize",
            ["idToken": idToken, "phoneVerificationInfo": ["sessionInfo": enrolSession ?? "", "code": enrolCode]])
        #expect(finStatus == 200)
        secrets.add("enrolled ID token", fin["idToken"])
        secrets.add("enrolled refresh token", fin["refreshToken"])
        for recovery in fin["recoveryCodes"] as? [String] ?? [] { secrets.add("recovery code", recovery) }
        let (mfaStatus, mfa) = try await drive.post("v1/accounts:signInWithPassword", ["email": email, "password": password])
        #expect(mfaStatus == 200)
        secrets.add("MFA pending credential", mfa["mfaPendingCredential"])

        // Token refresh, custom token, admin calls with both admin credentials.
        let (refreshStatus, refreshed) = try await drive.postPath(
            "/securetoken.googleapis.com/v1/token?key=k", ["grant_type": "refresh_token", "refresh_token": phone["refreshToken"] ?? ""])
        #expect(refreshStatus == 200)
        secrets.add("refreshed ID token", refreshed["id_token"])
        secrets.add("access token", refreshed["access_token"])
        let custom = try Self.unsignedCustomToken(uid: "custom-log-user")
        secrets.add("custom token", custom)
        let (customStatus, customAnswer) = try await drive.post("v1/accounts:signInWithCustomToken", ["token": custom, "returnSecureToken": true])
        #expect(customStatus == 200, "\(customAnswer)")
        secrets.add("custom ID token", customAnswer["idToken"])
        secrets.add("custom refresh token", customAnswer["refreshToken"])
        let adminPassword = "admin-pw-" + UUID().uuidString
        secrets.add("admin-set password", adminPassword)
        #expect(
            try await drive.admin(
                .POST, "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts",
                #"{"email":"made-log@example.com","password":"\#(adminPassword)"}"#) == 200)
        #expect(
            try await drive.admin(
                .POST, "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:lookup",
                #"{"email":["made-log@example.com"]}"#, credential: named) == 200)
        #expect(
            try await drive.admin(
                .POST, "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:sendOobCode",
                #"{"requestType":"PASSWORD_RESET","email":"\#(email)","returnOobLink":true}"#) == 200)

        await flint.stop()
        stopped = true
        let log = flint.log
        #expect(log.contains("accounts:signUp") || log.contains("signUp"), "the log was written at trace level")
        #expect(secrets.values.count >= 30, "every flow ran: \(secrets.values.map(\.what))")
        let leaks = secrets.leaks(in: log)
        #expect(leaks.isEmpty, "secrets in the \(format) log: \(leaks)")
    }

    /// An unsigned custom token, as the Admin SDKs make them for the emulator.
    static func unsignedCustomToken(uid: String) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let claims: [String: Any] = [
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit", "iat": now, "exp": now + 3600,
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com", "uid": uid,
            "claims": ["plan": UUID().uuidString],
        ]
        func part(_ object: [String: Any]) throws -> String {
            try JSONSerialization.data(withJSONObject: object).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return try part(["alg": "none", "typ": "JWT"]) + "." + part(claims) + "."
    }
}

/// Requests against one node.
private struct Driver {
    let client: HTTPClient
    let flint: FlintProcess
    let admin: String

    func post(_ path: String, _ body: [String: Any]) async throws -> (Int, [String: Any]) {
        try await postPath("/identitytoolkit.googleapis.com/\(path)?key=k", body)
    }

    func postPath(_ path: String, _ body: [String: Any]) async throws -> (Int, [String: Any]) {
        try await postObject(client, flint.base + path, body)
    }

    /// An operator call; returns the status.
    func admin(_ method: HTTPMethod, _ path: String, _ body: String, credential: String? = nil) async throws -> Int {
        var request = HTTPClientRequest(url: flint.base + path)
        request.method = method
        request.headers.add(name: "authorization", value: "Bearer \(credential ?? admin)")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    func smsCode(_ phone: String) async throws -> String {
        let query = phone.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? phone
        let (_, listed) = try await getJSON(client, flint.base + "/emulator/v1/projects/demo-flint/verificationCodes?phoneNumber=\(query)")
        return try #require((listed["verificationCodes"] as? [[String: String]])?.last?["code"])
    }

    func oobCode(for email: String) async throws -> (code: String, link: String) {
        let (_, listed) = try await getJSON(client, flint.base + "/emulator/v1/projects/demo-flint/oobCodes")
        let entry = try #require((listed["oobCodes"] as? [[String: String]])?.last { $0["email"] == email })
        return (try #require(entry["oobCode"]), try #require(entry["oobLink"]))
    }
}
