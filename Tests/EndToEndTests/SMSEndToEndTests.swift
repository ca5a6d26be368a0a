import AsyncHTTPClient
import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@Suite("End to end: SMS through a provider")
struct SMSEndToEndTests {
    @Test("production mode texts through --sms (Twilio's API, a stand-in): the code it receives signs the user in")
    func twilioProvider() async throws {
        let provider = try ScriptedHTTPServer(script: [.status(201, #"{"sid":"SM1","status":"queued"}"#)])
        defer { provider.stop() }
        let client = HTTPClient.shared
        let (server, cleanUp) = try await phoneServer(providerPort: provider.port)
        defer { cleanUp() }
        defer { server.terminate() }
        let v1 = server.base + "/identitytoolkit.googleapis.com/v1"

        let (sent, answer) = try await postJSON(client, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+16505553434"])
        #expect(sent == 200, "\(answer)")
        let sessionInfo = try #require(answer["sessionInfo"] as? String)
        #expect(provider.requestLines == ["POST /2010-04-01/Accounts/AC123/Messages.json HTTP/1.1"])
        #expect(provider.requestHeaders.first?["authorization"] == "Basic " + Data("AC123:token".utf8).base64EncodedString())
        var form: [String: String] = [:]
        for pair in (provider.requestBodies.first ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            if parts.count == 2 { form[parts[0]] = parts[1] }
        }
        #expect(form["To"] == "+16505553434")
        #expect(form["From"] == "+15551234567")
        let code = try #require(form["Body"].flatMap { body in body.split(separator: " ").first { $0.count == 6 && $0.allSatisfy(\.isNumber) } })

        let (signed, tokens) = try await postJSON(
            client, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": sessionInfo, "code": String(code)])
        #expect(signed == 200, "\(tokens)")
        #expect(tokens["phoneNumber"] as? String == "+16505553434")
        #expect(tokens["isNewUser"] as? Bool == true)
        #expect(!server.log.contains(String(code)), "codes never reach the log")
    }
}
