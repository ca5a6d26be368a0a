import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

extension Path {
    static let verifyClient = "\(v1)/accounts:verifyClient"
    static let recaptchaConfig = "/identitytoolkit.googleapis.com/v2/recaptchaConfig"
    static let pushes = "/emulator/v1/projects/\(project)/pushes"
    static let handler = "/__/auth/handler"
}

/// A receipt and the secret its silent push carried.
struct AppCredential: Sendable {
    let receipt: String
    let secret: String
}

extension API {
    /// Turns app verification to `mode` (`ENFORCE` or `OFF`) through the admin config API.
    func setAppVerification(_ mode: String) async throws {
        try await patchConfig(#"{"signIn":{"phoneNumber":{"appVerification":"\#(mode)"}}}"#, mask: "signIn.phoneNumber.appVerification")
    }

    /// The silent pushes in the dev outbox, oldest first.
    func pushes() async throws -> [JSONValue] {
        let reply = try await call(.get, Path.pushes)
        #expect(reply.status == .ok, "\(reply.text)")
        return reply["pushes"]?.arrayValue ?? []
    }

    /// `verifyClient` for `appToken`, then the secret read from the push it recorded.
    func appCredential(appToken: String = "0A1B2C3D4E5F60718293A4B5C6D7E8F9") async throws -> AppCredential {
        let reply = try await post(Path.verifyClient, ["appToken": appToken])
        #expect(reply.status == .ok, "\(reply.text)")
        let receipt = try #require(reply.string("receipt"))
        let push = try #require(try await pushes().last { $0["payload"]?["com.google.firebase.auth"]?["receipt"]?.stringValue == receipt })
        return AppCredential(receipt: receipt, secret: try #require(push["payload"]?["com.google.firebase.auth"]?["secret"]?.stringValue))
    }

    /// `sendVerificationCode` with extra (proof) fields; the raw answer.
    func send(_ phone: String, _ proof: [String: String] = [:]) async throws -> Reply {
        try await post(Path.send, ["phoneNumber": phone].merging(proof) { $1 })
    }

    /// Opens the web challenge with `query` (the API key included unless given), solves it like the page's script,
    /// posts it and returns the answer to the POST.
    func passWebChallenge(_ query: [String: String] = [:]) async throws -> Reply {
        let page = try await call(.get, Path.handler + "?" + URLQuery.encode(challengeQuery(query)))
        #expect(page.status == .ok, "\(page.text)")
        let form = try ChallengeForm(page.text)
        var fields = form.fields
        fields["solution"] = ProofOfWork.solve(puzzle: try #require(fields["puzzle"]))
        return try await call(
            .post, Path.handler, body: URLQuery.encode(fields.sorted { $0.key < $1.key }), contentType: "application/x-www-form-urlencoded")
    }

    /// The challenge's query as FirebaseAuth builds it, with `overrides` applied (an empty value removes a field).
    func challengeQuery(_ overrides: [String: String] = [:]) -> [(String, String)] {
        var fields = [
            "apiKey": "test", "authType": "verifyApp", "ibi": "com.example.app", "eventId": "ABCDEFGHIJ", "appId": "1:123456789:ios:abc123",
        ]
        for (key, value) in overrides { fields[key] = value.isEmpty ? nil : value }
        return fields.sorted { $0.key < $1.key }
    }
}

/// The hidden fields of the challenge page's form.
struct ChallengeForm {
    var fields: [String: String] = [:]

    init(_ html: String) throws {
        for line in html.split(separator: "\n") where line.hasPrefix("<input type=\"hidden\"") {
            let name = try #require(Self.attribute("name", in: String(line)))
            fields[name] = Self.attribute("value", in: String(line)).map(Self.unescape) ?? ""
        }
        try #require(fields["puzzle"] != nil, "no puzzle in the page")
    }

    static func attribute(_ name: String, in line: String) -> String? {
        guard let start = line.range(of: "\(name)=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// The recaptchaToken inside a challenge's 303 `Location`, with the callback's other parts.
struct ChallengeCallback {
    let scheme: String
    let inner: URLComponents
    let token: String

    init(location: String) throws {
        let outer = try #require(URLComponents(string: location))
        scheme = try #require(outer.scheme)
        #expect(outer.host == "firebaseauth")
        #expect(outer.path == "/link")
        let deepLink = try #require(outer.queryItems?.first { $0.name == "deep_link_id" }?.value)
        inner = try #require(URLComponents(string: deepLink))
        token = try #require(inner.queryItems?.first { $0.name == "recaptchaToken" }?.value)
    }

    func inner(_ name: String) -> String? { inner.queryItems?.first { $0.name == name }?.value }
}
