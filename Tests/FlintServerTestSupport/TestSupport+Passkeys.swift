import FlintCore
import FlintServer
package import FlintTesting
import Foundation
package import HTTPTypes
import Testing

extension Path {
    package static let passkeyEnrollStart = "\(v2)/passkeyEnrollment:start"
    package static let passkeyEnrollFinalize = "\(v2)/passkeyEnrollment:finalize"
    package static let passkeySignInStart = "\(v2)/passkeySignIn:start"
    package static let passkeySignInFinalize = "\(v2)/passkeySignIn:finalize"
}

/// The origin of the tests' web app: `localhost` is an authorized domain by default.
package let passkeyOrigin = "http://localhost:5000"

extension API {
    /// POSTs a JSON object with an `Origin` header and `headers`.
    package func postJSON(_ path: String, _ object: [String: Any], origin: String, headers: HTTPFields = [:]) async throws -> Reply {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        var fields = headers
        fields[.origin] = origin
        return try await postRaw(path, String(decoding: data, as: UTF8.self), headers: fields)
    }

    /// `passkeyEnrollment:start`'s challenge for the signed-in user.
    package func passkeyEnrollmentChallenge(_ idToken: String, origin: String = passkeyOrigin) async throws -> String {
        let start = try await postJSON(Path.passkeyEnrollStart, ["idToken": idToken], origin: origin)
        #expect(start.status == .ok, "\(start.text)")
        return try Self.clientDataChallenge(try #require(start["credentialCreationOptions"]?["challenge"]?.stringValue))
    }

    /// A start answer's challenge (standard base64, as the Firebase SDKs read it) as `clientDataJSON` carries it:
    /// base64url without padding.
    package static func clientDataChallenge(_ answered: String) throws -> String {
        #expect(answered.count % 4 == 0 && !answered.contains("-") && !answered.contains("_"), "\(answered) is not padded base64")
        return Base64URL.encode(try #require(ImportBase64.decode(answered)))
    }

    /// The body of `passkeyEnrollment:finalize` for a registration.
    package static func registrationBody(
        _ idToken: String, _ authenticator: SoftwareAuthenticator, clientDataJSON: [UInt8], attestationObject: [UInt8], name: String = "Laptop"
    ) -> [String: Any] {
        [
            "idToken": idToken, "name": name,
            "authenticatorRegistrationResponse": [
                "id": authenticator.id, "rawId": authenticator.id, "type": "public-key", "authenticatorAttachment": "platform",
                "response": [
                    "clientDataJSON": Base64URL.encode(clientDataJSON), "attestationObject": Base64URL.encode(attestationObject),
                    "transports": ["internal"],
                ],
            ] as [String: Any],
        ]
    }

    /// Enrols `authenticator`'s credential for the signed-in user (start, register, finalize).
    package func enrollPasskey(
        _ idToken: String, _ authenticator: SoftwareAuthenticator, format: SoftwareAuthenticator.Format = .none, rpID: String = "localhost",
        origin: String = passkeyOrigin, name: String = "Laptop"
    ) async throws -> Reply {
        let challenge = try await passkeyEnrollmentChallenge(idToken)
        let (client, object) = try authenticator.register(rpID: rpID, challenge: challenge, origin: origin, format: format)
        return try await postJSON(
            Path.passkeyEnrollFinalize, Self.registrationBody(idToken, authenticator, clientDataJSON: client, attestationObject: object, name: name))
    }

    /// `passkeySignIn:start`'s challenge (in `tenant`, when given).
    package func passkeySignInChallenge(origin: String = passkeyOrigin, tenant: String? = nil) async throws -> String {
        let start = try await postJSON(Path.passkeySignInStart, tenant.map { ["tenantId": $0] } ?? [:], origin: origin)
        #expect(start.status == .ok, "\(start.text)")
        return try Self.clientDataChallenge(try #require(start["credentialRequestOptions"]?["challenge"]?.stringValue))
    }

    /// The body of `passkeySignIn:finalize` for an assertion.
    package static func assertionBody(
        _ authenticator: SoftwareAuthenticator, _ assertion: (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8])
    ) -> [String: Any] {
        var response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(assertion.clientDataJSON), "authenticatorData": Base64URL.encode(assertion.authenticatorData),
            "signature": Base64URL.encode(assertion.signature),
        ]
        if let handle = authenticator.userHandle { response["userHandle"] = Base64URL.encode(handle) }
        return [
            "authenticatorAuthenticationResponse": ["id": authenticator.id, "rawId": authenticator.id, "type": "public-key", "response": response]
        ]
    }

    /// Signs in with `authenticator` (start, assert, finalize).
    package func signInWithPasskey(
        _ authenticator: inout SoftwareAuthenticator, rpID: String = "localhost", origin: String = passkeyOrigin,
        flags: UInt8 = SoftwareAuthenticator.userPresent | SoftwareAuthenticator.userVerified, keepCounter: Bool = false, tenant: String? = nil
    ) async throws -> Reply {
        let challenge = try await passkeySignInChallenge(tenant: tenant)
        let assertion = try authenticator.assert(rpID: rpID, challenge: challenge, origin: origin, flags: flags, keepCounter: keepCounter)
        var body = Self.assertionBody(authenticator, assertion)
        body["tenantId"] = tenant
        return try await postJSON(Path.passkeySignInFinalize, body)
    }
}
