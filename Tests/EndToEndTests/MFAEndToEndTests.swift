import AsyncHTTPClient
import FlintTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// POSTs any JSON object (nested objects allowed) and returns the status and decoded answer.
func postObject(_ client: HTTPClient, _ url: String, _ body: [String: Any]) async throws -> (Int, [String: Any]) {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    let response = try await client.execute(request, timeout: .seconds(30))
    let buffer = try await response.body.collect(upTo: 1 << 22)
    let object = (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    return (Int(response.status.code), object)
}

@Suite("multi-factor sign-in against flint serve", .serialized)
struct MFAEndToEndTests {
    @Test("sign up with a password → verify the email by link → enrol SMS → sign out → sign in → hints → SMS code → tokens")
    func wholeFlow() async throws {
        let client = HTTPClient.shared
        let data = temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let flint = try await FlintProcess(dataDirectory: data)
        defer { flint.terminate() }
        var enable = HTTPClientRequest(url: flint.base + "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=mfa")
        enable.method = .PATCH
        enable.headers.add(name: "authorization", value: "Bearer owner")
        enable.headers.add(name: "content-type", value: "application/json")
        enable.body = .bytes(ByteBuffer(string: #"{"mfa":{"state":"ENABLED","enabledProviders":["PHONE_SMS"]}}"#))
        #expect(try await client.execute(enable, timeout: .seconds(10)).status == .ok)

        let v1 = flint.base + "/identitytoolkit.googleapis.com/v1"
        let v2 = flint.base + "/identitytoolkit.googleapis.com/v2/accounts"
        let email = "mfa-e2e@example.com"
        let (upStatus, up) = try await postObject(client, "\(v1)/accounts:signUp?key=e2e", ["email": email, "password": "correct horse"])
        #expect(upStatus == 200)
        let idToken = try #require(up["idToken"] as? String)

        // Verify the email: the link's page, then its confirming POST.
        let (sent, _) = try await postObject(client, "\(v1)/accounts:sendOobCode?key=e2e", ["requestType": "VERIFY_EMAIL", "idToken": idToken])
        #expect(sent == 200)
        let (_, listed) = try await getJSON(client, flint.base + "/emulator/v1/projects/demo-flint/oobCodes")
        let link = try #require((listed["oobCodes"] as? [[String: String]])?.first?["oobLink"])
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
        #expect(try await client.execute(HTTPClientRequest(url: link), timeout: .seconds(10)).status == .ok)
        var confirm = HTTPClientRequest(url: flint.base + "/__/auth/action")
        confirm.method = .POST
        confirm.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        confirm.body = .bytes(ByteBuffer(string: "mode=verifyEmail&oobCode=\(code)&apiKey=e2e"))
        #expect(try await client.execute(confirm, timeout: .seconds(10)).status == .ok)

        // A fresh sign-in (verified now), then enrolment of an SMS factor.
        let (_, fresh) = try await postObject(client, "\(v1)/accounts:signInWithPassword?key=e2e", ["email": email, "password": "correct horse"])
        let token = try #require(fresh["idToken"] as? String)
        let (startStatus, start) = try await postObject(
            client, "\(v2)/mfaEnrollment:start?key=e2e", ["idToken": token, "phoneEnrollmentInfo": ["phoneNumber": "+16505557001"]])
        #expect(startStatus == 200)
        let enrolSession = try #require((start["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let enrolCode = try await Self.smsCode(client, flint, "+16505557001")
        let (finStatus, fin) = try await postObject(
            client, "\(v2)/mfaEnrollment:finalize?key=e2e",
            ["idToken": token, "displayName": "phone", "phoneVerificationInfo": ["sessionInfo": enrolSession, "code": enrolCode]])
        #expect(finStatus == 200)
        #expect((fin["recoveryCodes"] as? [String])?.count == 10)

        // "Sign out" (drop the tokens) and sign in again: hints, then the second factor.
        let (firstStatus, first) = try await postObject(
            client, "\(v1)/accounts:signInWithPassword?key=e2e", ["email": email, "password": "correct horse"])
        #expect(firstStatus == 200)
        #expect(first["idToken"] == nil)
        let pending = try #require(first["mfaPendingCredential"] as? String)
        let hint = try #require((first["mfaInfo"] as? [[String: Any]])?.first)
        #expect(hint["phoneInfo"] as? String == "+*******7001")
        let enrollmentID = try #require(hint["mfaEnrollmentId"] as? String)
        let (_, started) = try await postObject(
            client, "\(v2)/mfaSignIn:start?key=e2e",
            ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "phoneSignInInfo": ["phoneNumber": "+*******7001"]])
        let signInSession = try #require((started["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String)
        let signInCode = try await Self.smsCode(client, flint, "+16505557001")
        let (doneStatus, done) = try await postObject(
            client, "\(v2)/mfaSignIn:finalize?key=e2e",
            ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": signInSession, "code": signInCode]])
        #expect(doneStatus == 200)
        let final = try #require(done["idToken"] as? String)
        let payload = try #require(
            Data(base64Encoded: base64(final.split(separator: ".")[1])).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        let firebase = try #require(payload["firebase"] as? [String: Any])
        #expect(firebase["sign_in_second_factor"] as? String == "phone")
        #expect(firebase["second_factor_identifier"] as? String == enrollmentID)
        #expect(firebase["sign_in_provider"] as? String == "password")
        #expect(!flint.log.contains(signInCode), "codes never appear in the log")
    }

    private static func smsCode(_ client: HTTPClient, _ flint: FlintProcess, _ phone: String) async throws -> String {
        let query = phone.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? phone
        let (_, listed) = try await getJSON(client, flint.base + "/emulator/v1/projects/demo-flint/verificationCodes?phoneNumber=\(query)")
        return try #require((listed["verificationCodes"] as? [[String: String]])?.last?["code"])
    }
}
