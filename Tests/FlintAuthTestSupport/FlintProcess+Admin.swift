public import FlintAuth
public import FlintTesting
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A message of the dev outbox.
public struct OutboxMessage: Decodable, Sendable {
    public var channel: String
    public var to: String
    public var body: String
    public var locale: String
}

extension FlintProcess {
    /// Turns phone sign-in on, with `testNumbers` as the fictional numbers and their codes (admin API).
    public func enablePhone(testNumbers: [String: String] = [:]) async throws {
        try await patchConfig(
            ["signIn": ["phoneNumber": ["enabled": true, "testPhoneNumbers": testNumbers]]],
            updateMask: "signIn.phoneNumber.enabled,signIn.phoneNumber.testPhoneNumbers")
    }

    /// Changes the fields `updateMask` names to their values in `body` (admin `PATCH .../config`).
    public func patchConfig(_ body: [String: Any], updateMask: String) async throws {
        let path = "/identitytoolkit.googleapis.com/admin/v2/projects/demo-flint/config?updateMask=\(updateMask)"
        let (status, data) = try await send(
            "PATCH", path, body: try JSONSerialization.data(withJSONObject: body), headers: ["Authorization": "Bearer owner"])
        guard status == 200 else {
            throw FlintProcessError(message: "config PATCH answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// The latest pending code texted to `phoneNumber` (dev API).
    public func verificationCode(for phoneNumber: String) async throws -> String {
        struct Codes: Decodable {
            struct Code: Decodable { var code: String }
            var verificationCodes: [Code]
        }
        let query = phoneNumber.replacingOccurrences(of: "+", with: "%2B")
        let (_, data) = try await get("/emulator/v1/projects/demo-flint/verificationCodes?phoneNumber=\(query)")
        guard let code = try JSONDecoder().decode(Codes.self, from: data).verificationCodes.last?.code else {
            throw FlintProcessError(message: "no code for \(phoneNumber)")
        }
        return code
    }

    /// The dev outbox.
    public func outbox() async throws -> [OutboxMessage] {
        struct Outbox: Decodable { var messages: [OutboxMessage] }
        let (_, data) = try await get("/emulator/v1/projects/demo-flint/outbox")
        return try JSONDecoder().decode(Outbox.self, from: data).messages
    }
}

extension FlintProcess {
    /// Turns multi-factor authentication on with SMS and TOTP factors (admin API).
    public func enableMFA(state: String = "ENABLED") async throws {
        let mfa: [String: Any] = [
            "state": state, "enabledProviders": ["PHONE_SMS"],
            "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": 2]]],
        ]
        try await patchConfig(["mfa": mfa, "signIn": ["phoneNumber": ["enabled": true]]], updateMask: "mfa,signIn.phoneNumber.enabled")
    }

    /// A new password account whose email the operator verified (enrolling a second factor needs one), signed in on
    /// `auth`: its email and user.
    public func signedInVerifiedUser(on auth: Auth, password: String = "correct horse") async throws -> (email: String, user: User) {
        let email = uniqueEmail()
        let created = try await auth.createUser(withEmail: email, password: password).user
        try await markEmailVerified(uid: created.uid)
        return (email, try await auth.signIn(withEmail: email, password: password).user)
    }

    /// Marks an account's email as verified (admin `accounts:update`).
    public func markEmailVerified(uid: String) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["localId": uid, "emailVerified": true])
        let (status, data) = try await send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/demo-flint/accounts:update", body: body,
            headers: ["Authorization": "Bearer owner"])
        guard status == 200 else {
            throw FlintProcessError(message: "accounts:update answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// Sends a sign-in link to `email` and signs in with it (the email is then verified).
    @discardableResult
    public func signInWithLink(_ auth: Auth, email: String) async throws -> User {
        let settings = ActionCodeSettings()
        settings.url = URL(string: "http://localhost/finish")
        settings.handleCodeInApp = true
        try await auth.sendSignInLink(toEmail: email, actionCodeSettings: settings)
        return try await auth.signIn(withEmail: email, link: try await oobLink(for: email)).user
    }

    /// Runs a first-factor sign-in that must fail with `secondFactorRequired`, and returns that error.
    public func expectSecondFactor(_ signIn: () async throws -> Any) async throws -> NSError {
        do {
            _ = try await signIn()
        } catch let error as NSError where error.domain == AuthErrors.domain && error.code == AuthErrorCode.secondFactorRequired.rawValue {
            return error
        }
        throw FlintProcessError(message: "the sign-in did not ask for a second factor")
    }

    /// The silent pushes recorded in the dev outbox (`/emulator/v1/projects/demo-flint/pushes`).
    public func pushes() async throws -> [[String: Any]] {
        let (status, data) = try await get("/emulator/v1/projects/demo-flint/pushes")
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let pushes = object["pushes"] as? [[String: Any]]
        else { throw FlintProcessError(message: "pushes answered \(status)") }
        return pushes
    }
}
