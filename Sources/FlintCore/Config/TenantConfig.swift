/// One of the project's tenants, in Identity Platform's admin v2 `Tenant` schema (`projects/{p}/tenants/{id}`):
/// `displayName`, the sign-in switches (`allowPasswordSignup`, `enableEmailLinkSignin`, `enableAnonymousUser`,
/// `disableAuth`) and the sections a tenant has of its own (`mfaConfig`, `testPhoneNumbers`, `smsRegionConfig`,
/// `passwordPolicyConfig`, `recaptchaConfig`).
///
/// Like ``ProjectConfig``, the whole document is kept as JSON, so fields this version does not act on survive a round
/// trip. The sections a project has too are checked by the project's own rules (``settings``), the tenant's provider
/// resources among them: `defaultSupportedIdpConfigs`, `oauthIdpConfigs` and `inboundSamlConfigs` are kept in the
/// document in the project config's shape (``ProjectConfig/IdpCollection``), served by their own resources
/// (`tenants/{t}/oauthIdpConfigs`…), never by the tenant's.
package struct TenantConfig: Sendable, Equatable {
    /// The stored document, without `name`.
    package private(set) var document: [String: JSONValue]

    /// The tenant fields an `updateMask` may name (and any path inside the object-valued ones).
    package static let fields: [String] = [
        "displayName", "allowPasswordSignup", "enableEmailLinkSignin", "disableAuth", "enableAnonymousUser", "mfaConfig", "testPhoneNumbers",
        "smsRegionConfig", "passwordPolicyConfig", "recaptchaConfig", "emailPrivacyConfig", "autodeleteAnonymousUsers",
    ]
    /// The fields that hold booleans.
    static let booleanFields: Set<String> = [
        "allowPasswordSignup", "enableEmailLinkSignin", "disableAuth", "enableAnonymousUser", "autodeleteAnonymousUsers",
    ]
    /// The fields that hold objects.
    static let objectFields: Set<String> = [
        "mfaConfig", "testPhoneNumbers", "smsRegionConfig", "passwordPolicyConfig", "recaptchaConfig", "emailPrivacyConfig",
    ]

    /// Validates and normalizes a tenant document (test numbers to E.164, password-policy lengths to numbers).
    /// - Throws: ``AuthError`` `MISSING_DISPLAY_NAME` / `INVALID_DISPLAY_NAME` for the name, `INVALID_CONFIG` naming a
    ///   section that is wrong, `INVALID_ARGUMENT` for a field of the wrong type.
    package init(document: [String: JSONValue]) throws(AuthError) {
        var doc = document
        doc["name"] = nil
        doc["tenantId"] = nil
        guard let name = doc["displayName"] else { throw AuthError.missingDisplayName }
        guard let text = name.stringValue, Self.isDisplayName(text) else { throw AuthError.invalidDisplayName }
        for field in Self.booleanFields.sorted() where doc[field] != nil && doc[field]?.boolValue == nil {
            throw AuthError.invalidArgument("\(field) must be a boolean.")
        }
        for field in Self.objectFields.sorted() where doc[field] != nil && doc[field]?.objectValue == nil {
            throw AuthError.invalidArgument("\(field) must be an object.")
        }
        // The sections a project has too are checked, and normalized, by the project's rules.
        let settings = try ProjectConfig(document: Self.projectDocument(doc))
        if doc["testPhoneNumbers"] != nil { doc["testPhoneNumbers"] = .object(settings.testPhoneNumbers.mapValues(JSONValue.string)) }
        for (field, section) in Self.sharedSections where doc[field] != nil { doc[field] = settings.document[section] }
        self.document = doc
    }

    /// `displayName`.
    package var displayName: String { document["displayName"]?.stringValue ?? "" }
    /// Whether email and password sign-up and sign-in are allowed (`allowPasswordSignup`; off unless set).
    package var allowPasswordSignup: Bool { document["allowPasswordSignup"]?.boolValue ?? false }
    /// Whether email-link sign-in is allowed (`enableEmailLinkSignin`; off unless set).
    package var enableEmailLinkSignin: Bool { document["enableEmailLinkSignin"]?.boolValue ?? false }
    /// Whether anonymous sign-up is allowed (`enableAnonymousUser`; off unless set).
    package var enableAnonymousUser: Bool { document["enableAnonymousUser"]?.boolValue ?? false }
    /// Whether every sign-in of the tenant is refused (`disableAuth`).
    package var disableAuth: Bool { document["disableAuth"]?.boolValue ?? false }

    /// The tenant's settings as a project config: its own sections in the project's places (`mfaConfig` as `mfa`,
    /// `testPhoneNumbers` under `signIn.phoneNumber`, the sign-in switches under `signIn`), so the rules that read a
    /// project's config read a tenant's the same way.
    package var settings: ProjectConfig {
        // The document was checked when this value was made.
        var settings = (try? ProjectConfig(document: Self.projectDocument(document))) ?? .defaults
        settings.tenantEmailLinkSignIn = enableEmailLinkSignin
        return settings
    }

    /// The config a request in this tenant runs with: `project`'s, with the tenant's own sections in their places —
    /// the sign-in switches (`signIn.email`, `signIn.anonymous`, `signIn.phoneNumber`), `mfa`, `smsRegionConfig`,
    /// `passwordPolicyConfig`, `emailPrivacyConfig` and the provider resources — so what the tenant does not have
    /// (authorized domains, templates, blocking functions, `flint.*`) stays the project's.
    /// - Throws: ``AuthError`` when the combination does not validate (the sections were each checked when stored).
    package func settings(over project: ProjectConfig) throws(AuthError) -> ProjectConfig {
        let own = Self.projectDocument(document)
        var doc = project.document
        for (_, section) in Self.sharedSections { doc[section] = own[section] }
        var signIn = doc["signIn"]?.objectValue ?? [:]
        for (key, value) in own["signIn"]?.objectValue ?? [:] { signIn[key] = value }
        doc["signIn"] = .object(signIn)
        var settings = try ProjectConfig(document: doc)
        settings.tenantEmailLinkSignIn = enableEmailLinkSignin
        return settings
    }

    /// The tenant as the admin API answers it: its resource `name`, then its fields (its provider resources are not
    /// among them).
    package func resource(projectID: String, id: String) -> [String: JSONValue] {
        var out = document
        for collection in ProjectConfig.IdpCollection.allCases { out[collection.rawValue] = nil }
        out["name"] = .string("projects/\(projectID)/tenants/\(id)")
        return out
    }

    /// The tenant's provider resources of a collection, by provider ID.
    package func idpResources(_ collection: ProjectConfig.IdpCollection) -> [String: [String: JSONValue]] {
        ProjectConfig.idpResources(collection, in: document)
    }

    /// This tenant with the provider's resource replaced (`nil` removes it), validated by the project's rules.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` naming what is wrong.
    package func setting(
        idp providerID: String, in collection: ProjectConfig.IdpCollection, to resource: [String: JSONValue]?
    ) throws(AuthError) -> TenantConfig {
        try TenantConfig(document: ProjectConfig.setting(idp: providerID, in: collection, to: resource, document: document))
    }

    /// Applies a PATCH: copies each masked path from `patch` (a path absent from `patch` is cleared), then validates.
    /// Without a mask, every field present in `patch` is taken whole.
    /// - Throws: ``AuthError`` for a mask path outside the tenant's fields, or an invalid result.
    package func applying(patch: [String: JSONValue], updateMask: [String]?) throws(AuthError) -> TenantConfig {
        let mask = updateMask ?? Self.fields.filter { patch[$0] != nil }
        var doc = document
        for path in mask {
            let top = String(path.split(separator: ".", maxSplits: 1).first ?? "")
            guard Self.fields.contains(top), path == top || Self.objectFields.contains(top) else {
                throw AuthError.invalidArgument("Invalid update mask path: \(path)")
            }
            ProjectConfig.set(ProjectConfig.value(at: path, in: patch), at: path, in: &doc)
        }
        return try TenantConfig(document: doc)
    }

    /// Whether `text` is a tenant display name as Identity Platform takes it: 4 to 20 letters, digits and hyphens,
    /// starting with a letter.
    package static func isDisplayName(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard (4...20).contains(scalars.count), let first = scalars.first, isASCIILetter(first) else { return false }
        return scalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Whether `text` may name a tenant: 1 to 64 ASCII letters, digits and hyphens, starting with a letter or digit
    /// (Identity Platform's generated IDs, and the emulator's 28 alphanumerics of imported data).
    package static func isTenantID(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard (1...64).contains(scalars.count), let first = scalars.first, first != "-" else { return false }
        return scalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A new tenant's ID as Identity Platform makes them: the display name in lower case, a hyphen and 5 random
    /// lower-case letters and digits (`acme-corp-x7k2q`).
    package static func newID(displayName: String, random: any RandomSource) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
        // 252 is the largest multiple of 36 below 256: bytes above it are dropped, so every character is as likely.
        var suffix = String.UnicodeScalarView()
        while suffix.count < 5 {
            for byte in random.bytes(8) where byte < 252 && suffix.count < 5 { suffix.append(alphabet[Int(byte) % alphabet.count]) }
        }
        return "\(displayName.lowercased())-\(String(suffix))"
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

    /// Tenant sections a project has too, and their place in the project's document.
    private static let sharedSections: [(tenant: String, project: String)] =
        [
            ("mfaConfig", "mfa"), ("smsRegionConfig", "smsRegionConfig"), ("passwordPolicyConfig", "passwordPolicyConfig"),
            ("emailPrivacyConfig", "emailPrivacyConfig"),
        ] + ProjectConfig.IdpCollection.allCases.map { ($0.rawValue, $0.rawValue) }

    /// The project-config document of a tenant document's settings.
    private static func projectDocument(_ doc: [String: JSONValue]) -> [String: JSONValue] {
        var out: [String: JSONValue] = ["authorizedDomains": .array([])]
        for (field, section) in sharedSections { out[section] = doc[field] }
        let email: [String: JSONValue] = [
            "enabled": .bool(doc["allowPasswordSignup"]?.boolValue ?? false),
            "passwordRequired": .bool(!(doc["enableEmailLinkSignin"]?.boolValue ?? false)),
        ]
        var phone: [String: JSONValue] = ["enabled": .bool(false)]
        phone["testPhoneNumbers"] = doc["testPhoneNumbers"]
        out["signIn"] = .object([
            "email": .object(email), "phoneNumber": .object(phone),
            "anonymous": .object(["enabled": .bool(doc["enableAnonymousUser"]?.boolValue ?? false)]),
        ])
        return out
    }
}
