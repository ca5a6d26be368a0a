import FlintCore
import FlintStore

/// A blocking function's answer that lets the operation go on: the account fields it changes (`userRecord` with its
/// `updateMask`), the session's extra claims, and its reCAPTCHA override.
struct BlockingVerdict: Sendable, Equatable {
    var displayName: JSONValue? = nil
    var photoURL: JSONValue? = nil
    var disabled: Bool? = nil
    var emailVerified: Bool? = nil
    /// The account's new custom claims (`nil` in the answer clears them).
    var customClaims: JSONValue? = nil
    /// Claims added to this session's ID tokens (`beforeSignIn` only).
    var sessionClaims: [String: JSONValue]? = nil
    /// `BLOCK` or `ALLOW`.
    var recaptchaActionOverride: String? = nil

    /// Claim names a function may not set (firebase-functions refuses them too).
    static let reservedClaims: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "iat", "iss", "jti", "nbf", "nonce", "firebase",
    ]
    /// The most characters of claims, as JSON, a function may set (each set, and both together).
    static let maxClaimsSize = 1000

    /// Reads a function's 2xx answer for `trigger`.
    /// - Throws: the reason the answer is unusable (not JSON, a field of the wrong type, reserved or oversized claims,
    ///   session claims outside `beforeSignIn`).
    init(answer: JSONValue, trigger: ProjectConfig.BlockingTrigger) throws(Unusable) {
        guard let fields = answer.objectValue else { throw Unusable("the answer is not a JSON object") }
        if let override = fields["recaptchaActionOverride"] {
            guard let text = override.stringValue, ["BLOCK", "ALLOW"].contains(text) else {
                throw Unusable("recaptchaActionOverride must be BLOCK or ALLOW")
            }
            recaptchaActionOverride = text
        }
        guard let record = fields["userRecord"] else { return }
        guard let recordFields = record.objectValue else { throw Unusable("userRecord must be an object") }
        let mask = (recordFields["updateMask"]?.stringValue ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        for path in mask {
            let value = recordFields[path] ?? .null
            switch path {
            case "displayName":
                guard value.stringValue != nil || value == .null else { throw Unusable("displayName must be a string") }
                displayName = value
            // firebase-functions (Python) writes `photoURL`; Identity Platform documents `photoUrl`.
            case "photoUrl", "photoURL":
                guard value.stringValue != nil || value == .null else { throw Unusable("photoUrl must be a string") }
                photoURL = value
            case "disabled":
                guard let flag = value.boolValue else { throw Unusable("disabled must be a boolean") }
                disabled = flag
            case "emailVerified":
                guard let flag = value.boolValue else { throw Unusable("emailVerified must be a boolean") }
                emailVerified = flag
            case "customClaims":
                guard value.objectValue != nil || value == .null else { throw Unusable("customClaims must be an object") }
                try Self.check(value.objectValue ?? [:], name: "customClaims")
                customClaims = value
            case "sessionClaims":
                guard trigger == .beforeSignIn else { throw Unusable("sessionClaims can be set by beforeSignIn only") }
                guard let claims = value.objectValue else { throw Unusable("sessionClaims must be an object") }
                try Self.check(claims, name: "sessionClaims")
                sessionClaims = claims
            default:
                throw Unusable("updateMask names \(path), which a blocking function cannot set")
            }
        }
        if let session = sessionClaims {
            let combined = (customClaims?.objectValue ?? [:]).merging(session) { $1 }
            guard JSONValue.object(combined).serialized().count <= Self.maxClaimsSize else {
                throw Unusable("customClaims and sessionClaims exceed \(Self.maxClaimsSize) characters together")
            }
        }
    }

    /// No change.
    init() {}

    private static func check(_ claims: [String: JSONValue], name: String) throws(Unusable) {
        let reserved = claims.keys.filter(reservedClaims.contains).sorted()
        guard reserved.isEmpty else { throw Unusable("\(name) sets the reserved claims \(reserved.joined(separator: ","))") }
        guard JSONValue.object(claims).serialized().count <= maxClaimsSize else {
            throw Unusable("\(name) exceed \(maxClaimsSize) characters")
        }
    }

    /// The later function's answer over this one, field by field (`beforeSignIn` over `beforeCreate`).
    func overridden(by later: BlockingVerdict) -> BlockingVerdict {
        var merged = self
        if let value = later.displayName { merged.displayName = value }
        if let value = later.photoURL { merged.photoURL = value }
        if let value = later.disabled { merged.disabled = value }
        if let value = later.emailVerified { merged.emailVerified = value }
        if let value = later.customClaims { merged.customClaims = value }
        if let value = later.sessionClaims { merged.sessionClaims = value }
        if let value = later.recaptchaActionOverride { merged.recaptchaActionOverride = value }
        return merged
    }

    /// Whether the answer changes the account.
    var changesAccount: Bool { displayName != nil || photoURL != nil || disabled != nil || emailVerified != nil || customClaims != nil }

    /// What the answer would change of `user`, in the answer's words (`displayName`, `photoUrl`, `disabled`,
    /// `emailVerified`, `customClaims`, then `sessionClaims` when it adds any): a field set to what the account already
    /// holds changes nothing.
    func changes(to user: UserRecord) -> [String] {
        var updated = user
        apply(to: &updated)
        var names: [String] = []
        if updated.displayName != user.displayName { names.append("displayName") }
        if updated.photoURL != user.photoURL { names.append("photoUrl") }
        if updated.disabled != user.disabled { names.append("disabled") }
        if updated.emailVerified != user.emailVerified { names.append("emailVerified") }
        let claims = { (text: String?) in text.flatMap { try? JSONValue(parsing: Array($0.utf8)) }?.objectValue ?? [:] }
        if claims(updated.customAttributes) != claims(user.customAttributes) { names.append("customClaims") }
        if sessionClaims?.isEmpty == false { names.append("sessionClaims") }
        return names
    }

    /// Applies the account fields to `user`.
    func apply(to user: inout UserRecord) {
        if let displayName { user.displayName = displayName.stringValue }
        if let photoURL { user.photoURL = photoURL.stringValue }
        if let disabled { user.disabled = disabled }
        if let emailVerified, user.email != nil { user.emailVerified = emailVerified }
        if let customClaims {
            let claims = customClaims.objectValue ?? [:]
            user.customAttributes = claims.isEmpty ? nil : String(decoding: JSONValue.object(claims).serialized(), as: UTF8.self)
        }
    }

    /// Why an answer cannot be used.
    struct Unusable: Error, Sendable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
