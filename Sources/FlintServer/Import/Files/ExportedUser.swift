import FlintCore
package import FlintStore

/// A JSON value whose members keep their order, written as `JSON.stringify(value, null, 2)` writes it (what
/// `firebase auth:export` produces).
package indirect enum OrderedJSON {
    case string(String)
    case bool(Bool)
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    /// The text, nested lines indented by two spaces per level.
    package func render(indent: Int = 0, into out: inout String) {
        let pad = String(repeating: " ", count: indent + 2)
        switch self {
        case .string(let text): out += String(decoding: JSONValue.string(text).serialized(), as: UTF8.self)
        case .bool(let value): out += value ? "true" : "false"
        case .array(let items):
            guard !items.isEmpty else { return out += "[]" }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.render(indent: indent + 2, into: &out)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { return out += "{}" }
            out += "{\n"
            for (i, (name, value)) in members.enumerated() {
                out += pad + String(decoding: JSONValue.string(name).serialized(), as: UTF8.self) + ": "
                value.render(indent: indent + 2, into: &out)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }
}

/// One account as `firebase auth:export` writes users: the JSON object (its member names and order) or the CSV record
/// (its 52 columns and trailing comma).
package struct ExportedUser {
    package let account: UserAndFactors
    /// The password hash in export form, if the account has one.
    package let hash: ExportedHash?

    package init(_ account: UserAndFactors) {
        self.account = account
        self.hash = account.user.passwordHash.flatMap(ExportedHash.init(stored:))
    }

    /// The JSON object: `localId`, `email`, `emailVerified`, `passwordHash`, `salt`, `displayName`, `photoUrl`,
    /// `lastSignedInAt`, `createdAt`, `phoneNumber`, `disabled`, `customAttributes`, `mfaInfo`, `providerUserInfo`, and
    /// Flint's `passkeyInfo` when the account has passkeys.
    package var json: OrderedJSON {
        let user = account.user
        var members: [(String, OrderedJSON)] = [("localId", .string(user.localID))]
        if let email = user.email { members.append(("email", .string(email))) }
        members.append(("emailVerified", .bool(user.emailVerified)))
        if let hash {
            members.append(("passwordHash", .string(ImportBase64.encode(hash.hash))))
            if !hash.salt.isEmpty { members.append(("salt", .string(ImportBase64.encode(hash.salt)))) }
        }
        if let name = user.displayName { members.append(("displayName", .string(name))) }
        if let photo = user.photoURL { members.append(("photoUrl", .string(photo))) }
        if let last = user.lastLoginAt { members.append(("lastSignedInAt", .string(String(last.millisecondsSince1970)))) }
        members.append(("createdAt", .string(String(user.createdAt.millisecondsSince1970))))
        if let phone = user.phoneNumber { members.append(("phoneNumber", .string(phone))) }
        members.append(("disabled", .bool(user.disabled)))
        if let claims = user.customAttributes { members.append(("customAttributes", .string(claims))) }
        if !account.enrollments.isEmpty { members.append(("mfaInfo", .array(account.enrollments.map(Self.factor)))) }
        members.append(("providerUserInfo", .array(account.identities.map(Self.provider))))
        if !account.passkeys.isEmpty { members.append(("passkeyInfo", .array(account.passkeys.map(Self.passkey)))) }
        return .object(members)
    }

    /// A passkey as the operator's download lists it: Identity Platform's `name` and `credentialId`, then Flint's key
    /// material (`publicKey`, `rpId`, `signCount`, `transports`, `createdAt`), which `flint users import` needs to
    /// verify the passkey later. Firebase's export has no passkeys.
    package static func passkey(_ p: PasskeyRecord) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = []
        if let name = p.name { members.append(("name", .string(name))) }
        members += [
            ("credentialId", .string(p.credentialID)), ("publicKey", .string(p.publicKey)), ("rpId", .string(p.rpID)),
            ("signCount", .string(String(p.signCount))),
        ]
        if !p.transports.isEmpty { members.append(("transports", .array(p.transports.map(OrderedJSON.string)))) }
        members.append(("createdAt", .string(String(p.createdAt.millisecondsSince1970))))
        return .object(members)
    }

    /// A federated identity as `firebase auth:export` lists it: `providerId`, `rawId`, `email`, `displayName`,
    /// `photoUrl` (the ones the provider gave).
    package static func provider(_ identity: FederatedIdentityRecord) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [("providerId", .string(identity.providerID)), ("rawId", .string(identity.rawID))]
        if let email = identity.email { members.append(("email", .string(email))) }
        if let name = identity.displayName { members.append(("displayName", .string(name))) }
        if let photo = identity.photoURL { members.append(("photoUrl", .string(photo))) }
        return .object(members)
    }

    /// A second factor as Firebase lists it: `totpInfo: {}` for an authenticator app, whose secret is not exported.
    package static func factor(_ e: MFAEnrollmentRecord) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [("mfaEnrollmentId", .string(e.enrollmentID))]
        if let name = e.displayName { members.append(("displayName", .string(name))) }
        if let phone = e.phoneNumber { members.append(("phoneInfo", .string(phone))) }
        if e.factor == .totp { members.append(("totpInfo", .object([]))) }
        members.append(("enrolledAt", .string(ImportTimestamp.format(e.enrolledAt))))
        return .object(members)
    }

    /// The CSV record, line break included. Second factors have no column in Firebase's CSV, nor federated providers
    /// other than those of ``ExportCSVColumns/providers``.
    package var csv: String {
        let user = account.user
        var fields = Array(repeating: "", count: ExportCSVColumns.count)
        fields[0] = Self.escape(user.localID)
        fields[1] = Self.escape(user.email ?? "")
        fields[2] = user.emailVerified ? "true" : "false"
        fields[3] = hash.map { ImportBase64.encode($0.hash) } ?? ""
        fields[4] = hash.map { $0.salt.isEmpty ? "" : ImportBase64.encode($0.salt) } ?? ""
        fields[5] = Self.escape(user.displayName ?? "")
        fields[6] = Self.escape(user.photoURL ?? "")
        for (id, column) in ExportCSVColumns.providers {
            guard let identity = account.identities.first(where: { $0.providerID == id }) else { continue }
            for (offset, value) in [identity.rawID, identity.email, identity.displayName, identity.photoURL].enumerated() {
                fields[column + offset] = Self.escape(value ?? "")
            }
        }
        fields[23] = String(user.createdAt.millisecondsSince1970)
        fields[24] = user.lastLoginAt.map { String($0.millisecondsSince1970) } ?? ""
        fields[25] = user.phoneNumber ?? ""
        fields[26] = user.disabled ? "true" : "false"
        // Claims are always quoted, as firebase-tools writes them.
        fields[27] = user.customAttributes.map(Self.quote) ?? ""
        return fields.joined(separator: ",") + ",\n"
    }

    /// A field quoted when it holds a comma, a quote or a line break (firebase-tools' `escapeCsv`, RFC 4180's rule).
    package static func escape(_ text: String) -> String {
        // A CR LF pair is one `Character`, hence the scalars.
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return quote(text)
    }

    /// `text` in double quotes, its quotes doubled.
    package static func quote(_ text: String) -> String {
        "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
