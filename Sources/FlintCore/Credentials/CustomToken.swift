/// A custom token as `accounts:signInWithCustomToken` receives it: a JWT a backend signed with a service-account key
/// (RS256, `kid` = the key's `private_key_id`), or — in dev mode only, as the emulator accepts them — an unsigned
/// one (`alg: none`, or a plain JSON object). Parsing checks the form; ``verify(with:)``, ``checkLifetime(now:)`` and
/// ``claims()`` check the rest, each failing with Firebase's error.
package struct CustomToken: Sendable {
    /// How the token is signed.
    package enum Signature: Sendable, Equatable {
        /// RS256 with the service-account key `keyID` (`nil` when the header names none).
        case rs256(keyID: String?)
        /// Not at all: `alg: none`, or a plain JSON object (the emulator's shortcut).
        case unsigned
    }

    /// `aud` of every custom token.
    package static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// The longest a custom token may live (`exp - iat`).
    package static let maxLifetime: Duration = .seconds(3600)
    /// How far in the future `iat` may be (clock skew).
    package static let allowedSkew: Duration = .seconds(300)
    /// The most bytes developer claims may take, as JSON.
    package static let maxClaimsBytes = 1000

    /// How it is signed.
    package let signature: Signature
    /// The payload.
    package let payload: [String: JSONValue]
    private let signingInput: [UInt8]
    private let signatureBytes: [UInt8]

    /// The `iss` claim (the signing service account's `client_email`), if a string.
    package var issuer: String? { payload["iss"]?.stringValue }

    /// Parses a token.
    /// - Throws: `MISSING_CUSTOM_TOKEN` when empty, `INVALID_CUSTOM_TOKEN` when not a JWT (or a JSON object) with a
    ///   supported `alg`.
    package init(parsing text: String?) throws(AuthError) {
        guard let text, !text.isEmpty else { throw AuthError.missingCustomToken }
        guard text.utf8.count <= 16_384 else { throw AuthError.invalidCustomToken }
        if text.first == "{" {
            guard let object = (try? JSONValue(parsing: Array(text.utf8)))?.objectValue else {
                throw AuthError.invalidCustomToken.with(detail: "((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            (signature, payload, signingInput, signatureBytes) = (.unsigned, object, [], [])
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signed = Base64URL.decode(parts[2]),
            let header = (try? JSONValue(parsing: headerBytes))?.objectValue, let body = (try? JSONValue(parsing: payloadBytes))?.objectValue
        else { throw AuthError.invalidCustomToken.with(detail: "Invalid assertion format") }
        switch header["alg"]?.stringValue {
        case "RS256":
            guard !signed.isEmpty else { throw AuthError.invalidCustomToken }
            signature = .rs256(keyID: header["kid"]?.stringValue)
        case "none":
            signature = .unsigned
        default:
            throw AuthError.invalidCustomToken.with(detail: "((Custom tokens are signed with RS256.))")
        }
        payload = body
        signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        signatureBytes = signed
    }

    /// Whether `key` made the signature (always `false` for an unsigned token).
    package func verify(with key: ServiceAccountPublicKey) -> Bool {
        guard case .rs256 = signature else { return false }
        return key.verify(signature: signatureBytes, input: signingInput)
    }

    /// The signed token's own checks: `aud`, `sub` = `iss`, and its time: `iat` and `exp` present, at most an hour
    /// apart, `iat` not in the future (beyond ``allowedSkew``), `exp` not past.
    /// - Parameter now: the current instant, compared in the whole seconds the claims carry.
    package func checkSigned(now instant: Instant) throws(AuthError) {
        let now = instant.secondsSince1970
        try checkAudience()
        guard let issuer, !issuer.isEmpty, payload["sub"]?.stringValue == issuer else {
            throw AuthError.invalidCustomToken.with(detail: "((iss and sub must both be the service account's client_email.))")
        }
        guard let iat = payload["iat"]?.wholeSeconds, let exp = payload["exp"]?.wholeSeconds else {
            throw AuthError.invalidCustomToken.with(detail: "((iat and exp are required.))")
        }
        guard exp > iat, exp - iat <= Self.maxLifetime.inSeconds else {
            throw AuthError.invalidCustomToken.with(detail: "((The token must expire within an hour of its iat.))")
        }
        guard iat <= now + Self.allowedSkew.inSeconds else {
            throw AuthError.invalidCustomToken.with(detail: "((The token's iat is in the future.))")
        }
        guard now < exp else { throw AuthError.invalidCustomToken.with(detail: "((The token has expired.))") }
    }

    /// `aud` is the custom-token audience (an unsigned plain JSON token need not say).
    package func checkAudience() throws(AuthError) {
        if signature == .unsigned, signingInput.isEmpty { return }
        let aud = payload["aud"]
        guard aud?.stringValue == Self.audience else {
            let shown = aud.map { $0.stringValue ?? String(decoding: $0.serialized(), as: UTF8.self) } ?? "undefined"
            throw AuthError.invalidCustomToken.with(
                detail:
                    "((Invalid aud (audience): \(shown) Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
        }
    }

    /// The sign-in the token asks for: its `uid` and developer `claims`.
    /// - Throws: `MISSING_IDENTIFIER` without a uid, `INVALID_CUSTOM_TOKEN` for one over 128 characters,
    ///   `TENANT_ID_MISMATCH` for a `tenant_id` that is not a string, `INVALID_CLAIMS` / `FORBIDDEN_CLAIM : <name>` /
    ///   `CLAIMS_TOO_LARGE` for the claims.
    package func claims() throws(AuthError) -> CustomTokenClaims {
        var tenant = ""
        switch payload["tenant_id"] {
        case nil, .null: break
        case .string(let id): tenant = id
        case .some: throw AuthError.tenantIDMismatch.with(detail: "((tenant_id must be a string.))")
        }
        // The emulator also takes `user_id` and non-string uids; a signed token names its user as the Admin SDKs do.
        var uid = payload["uid"]?.stringValue
        if signature == .unsigned { uid = uid ?? payload["uid"]?.primitiveText ?? payload["user_id"]?.primitiveText }
        guard let uid, !uid.isEmpty else { throw AuthError.missingIdentifier }
        guard uid.unicodeScalars.count <= 128 else { throw AuthError.invalidCustomToken.with(detail: "((uid must be 1 to 128 characters.))") }
        guard let claims = payload["claims"] else { return CustomTokenClaims(uid: uid, developerClaims: [:], tenant: tenant) }
        return CustomTokenClaims(uid: uid, developerClaims: try Self.checkDeveloperClaims(claims), tenant: tenant)
    }

    /// Developer claims: a JSON object of at most ``maxClaimsBytes`` bytes with no name an ID token reserves.
    package static func checkDeveloperClaims(_ value: JSONValue) throws(AuthError) -> [String: JSONValue] {
        guard let object = value.objectValue else { throw AuthError.invalidClaims }
        if let reserved = object.keys.sorted().first(where: { IDTokenClaims.reservedClaims.contains($0) }) {
            throw AuthError.forbiddenClaim.with(detail: reserved)
        }
        guard value.serialized().count <= maxClaimsBytes else { throw AuthError.claimsTooLarge }
        return object
    }
}

/// What a valid custom token signs in: the account and the claims its ID tokens carry.
package struct CustomTokenClaims: Sendable, Equatable {
    /// The account's `localId`; created when absent.
    package var uid: String
    /// The token's `claims`, carried by every ID token of the session (over the account's own custom claims).
    package var developerClaims: [String: JSONValue]
    /// `tenant_id`: the tenant the token signs into, empty for the default tenant.
    package var tenant: String

    /// Creates claims.
    package init(uid: String, developerClaims: [String: JSONValue], tenant: String = "") {
        self.uid = uid
        self.developerClaims = developerClaims
        self.tenant = tenant
    }
}

extension JSONValue {
    /// A whole number of seconds (`iat`, `exp`), or `nil`.
    fileprivate var wholeSeconds: Int64? { nonNegativeInteger }

    /// A string, number or boolean as text (as the emulator reads uids), or `nil` for other kinds.
    fileprivate var primitiveText: String? {
        switch self {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .number(let n): n.rounded() == n && abs(n) < 9.0e15 ? String(Int64(n)) : String(n)
        default: nil
        }
    }
}
