package import FlintCore
import Foundation
package import HTTPTypes
import Testing

extension Path {
    package static let sendOob = "\(v1)/accounts:sendOobCode"
    package static let emailLinkSignIn = "\(v1)/accounts:signInWithEmailLink"
    package static let signUp = "\(v1)/accounts:signUp"
    package static let passwordSignIn = "\(v1)/accounts:signInWithPassword"
    package static let resetPassword = "\(v1)/accounts:resetPassword"
    package static let update = "\(v1)/accounts:update"
    package static let createAuthURI = "\(v1)/accounts:createAuthUri"
    package static let oobCodes = "/emulator/v1/projects/\(project)/oobCodes"
    package static let action = "/__/auth/action"
}

extension API {
    /// `sendOobCode` for an email sign-in link to `email`, continuing at `https://localhost/finish`.
    package func sendSignInLink(_ email: String, extra: [String: String] = [:], headers: HTTPFields = [:]) async throws -> Reply {
        let fields = ["requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "https://localhost/finish", "canHandleCodeInApp": "true"]
        return try await post(Path.sendOob, fields.merging(extra) { $1 }, headers: headers)
    }

    /// The unused emailed codes listed by the dev helper.
    package func oobCodes() async throws -> [JSONValue] {
        let reply = try await call(.get, Path.oobCodes)
        #expect(reply.status == .ok)
        return reply["oobCodes"]?.arrayValue ?? []
    }

    /// The newest unused code sent to `email` (with its link).
    package func oobCode(for email: String) async throws -> (code: String, link: String) {
        let entry = try await oobCodes().last { $0["email"]?.stringValue == email }
        let code = try #require(entry?["oobCode"]?.stringValue, "no oob code for \(email)")
        return (code, try #require(entry?["oobLink"]?.stringValue))
    }

    /// A whole email-link sign-in: send, read the code, sign in.
    package func signInWithEmailLink(_ email: String, extra: [String: String] = [:]) async throws -> SignedIn {
        let sent = try await sendSignInLink(email)
        #expect(sent.status == .ok, "sendOobCode failed: \(sent.text)")
        let code = try await oobCode(for: email.lowercased()).code
        return try Self.signedIn(try await post(Path.emailLinkSignIn, ["email": email, "oobCode": code].merging(extra) { $1 }))
    }

    /// Email/password sign-up (must succeed).
    package func signUp(_ email: String, _ password: String = "correct horse", extra: [String: String] = [:]) async throws -> SignedIn {
        try Self.signedIn(try await post(Path.signUp, ["email": email, "password": password].merging(extra) { $1 }))
    }

    /// Email/password sign-in, the raw answer.
    package func signInWithPassword(_ email: String, _ password: String, headers: HTTPFields = [:]) async throws -> Reply {
        try await post(Path.passwordSignIn, ["email": email, "password": password, "returnSecureToken": "true"], headers: headers)
    }

    /// Patches the project config through the admin API.
    package func patchConfig(_ body: String, mask: String) async throws {
        let reply = try await admin(.patch, Path.config + "?updateMask=\(mask)", body: body)
        #expect(reply.status == .ok, "config PATCH failed: \(reply.text)")
    }
}

/// The query parameters of a link.
package func queryItems(of link: String) -> [String: String] {
    var out: [String: String] = [:]
    for item in URLComponents(string: link)?.queryItems ?? [] { out[item.name] = item.value ?? "" }
    return out
}

/// A JSON object of string fields, for request tables.
package func fieldsJSON(_ fields: [String: String]) -> String {
    (try? API.json(fields)) ?? "{}"
}
