/// Federated identity providers, kept in the config document as Identity Platform's admin resources are shaped:
/// `defaultSupportedIdpConfigs` (``defaultSupportedIdps``), `oauthIdpConfigs` (`oidc.*`) and `inboundSamlConfigs`
/// (`saml.*`, ``validateSAML(_:path:)``), each a map from the provider ID to its resource without `name`:
/// `{"enabled": true, "clientId": "…", "clientSecret": "…", "appleSignInConfig": {"bundleIds": ["…"]}}` and
/// `{"enabled": true, "clientId": "…", "issuer": "https://…", "clientSecret": "…", "displayName": "…",
/// "responseType": {"idToken": true, "code": false}}`.
extension ProjectConfig {
    /// The document member of each collection.
    package enum IdpCollection: String, Sendable, CaseIterable {
        /// Google's built-in providers.
        case defaultSupported = "defaultSupportedIdpConfigs"
        /// Generic OIDC providers.
        case oauth = "oauthIdpConfigs"
        /// SAML identity providers.
        case saml = "inboundSamlConfigs"

        /// Whether `providerID` is a valid ID in this collection.
        package func accepts(_ providerID: String) -> Bool {
            switch self {
            case .defaultSupported: ProjectConfig.defaultSupportedIdps.contains(providerID)
            case .oauth: ProjectConfig.isProviderID(providerID, prefix: "oidc.")
            case .saml: ProjectConfig.isProviderID(providerID, prefix: "saml.")
            }
        }

        /// The fields an `updateMask` may name.
        package var updatablePaths: [String] {
            switch self {
            case .defaultSupported:
                ["enabled", "clientId", "clientSecret", "appleSignInConfig", "appleSignInConfig.bundleIds", "appleSignInConfig.codeFlowConfig"]
            case .oauth:
                ["enabled", "displayName", "clientId", "clientSecret", "issuer", "responseType", "responseType.idToken", "responseType.code"]
            case .saml:
                [
                    "enabled", "displayName", "idpConfig", "idpConfig.idpEntityId", "idpConfig.ssoUrl", "idpConfig.idpCertificates",
                    "idpConfig.signRequest", "spConfig", "spConfig.spEntityId", "spConfig.callbackUri",
                ]
            }
        }
    }

    /// The built-in providers Flint verifies.
    package static let defaultSupportedIdps = [
        "apple.com", "google.com", "microsoft.com", "yahoo.com", "facebook.com", "github.com", "playgames.google.com", "twitter.com",
        "gc.apple.com",
    ]

    /// Whether `id` names a generic OIDC provider: `oidc.` then letters, digits, `-`, `_` or `.`.
    package static func isOIDCProviderID(_ id: String) -> Bool { isProviderID(id, prefix: "oidc.") }

    /// Whether `id` is `prefix` (`oidc.`, `saml.`) then 1 to 59 letters, digits, `-`, `_` or `.`.
    static func isProviderID(_ id: String, prefix: String) -> Bool {
        guard id.hasPrefix(prefix), id.utf8.count > prefix.utf8.count, id.utf8.count <= 64 else { return false }
        return id.dropFirst(prefix.count).unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_.".unicodeScalars.contains($0)
        }
    }

    /// The stored resources of a collection, by provider ID.
    package func idpResources(_ collection: IdpCollection) -> [String: [String: JSONValue]] {
        Self.idpResources(collection, in: document)
    }

    /// The resources of a collection in a document holding one (a project's config, a tenant's), by provider ID.
    package static func idpResources(_ collection: IdpCollection, in document: [String: JSONValue]) -> [String: [String: JSONValue]] {
        (document[collection.rawValue]?.objectValue ?? [:]).compactMapValues(\.objectValue)
    }

    /// `document` with the provider's resource in `collection` replaced (`nil` removes it), not validated.
    package static func setting(
        idp providerID: String, in collection: IdpCollection, to resource: [String: JSONValue]?, document: [String: JSONValue]
    ) -> [String: JSONValue] {
        var doc = document
        var map = doc[collection.rawValue]?.objectValue ?? [:]
        map[providerID] = resource.map(JSONValue.object)
        doc[collection.rawValue] = map.isEmpty ? nil : .object(map)
        return doc
    }

    /// The collection `providerID` belongs to, if any.
    package static func collection(of providerID: String) -> IdpCollection? {
        IdpCollection.allCases.first { $0.accepts(providerID) }
    }

    /// The provider's settings, if configured (a SAML provider's with ``IdentityProviderConfig/saml``).
    package func identityProvider(_ providerID: String) -> IdentityProviderConfig? {
        guard let collection = Self.collection(of: providerID), let resource = idpResources(collection)[providerID] else { return nil }
        return IdentityProviderConfig(providerID: providerID, resource: resource)
    }

    /// This config with the provider's resource replaced (`nil` removes it), validated.
    /// - Throws: ``AuthError`` `INVALID_CONFIG` naming what is wrong.
    package func setting(idp providerID: String, in collection: IdpCollection, to resource: [String: JSONValue]?) throws(AuthError) -> ProjectConfig {
        try ProjectConfig(document: Self.setting(idp: providerID, in: collection, to: resource, document: document))
    }

    static func validateIdentityProviders(_ doc: [String: JSONValue]) throws(AuthError) {
        for collection in IdpCollection.allCases {
            guard let value = doc[collection.rawValue] else { continue }
            guard let map = value.objectValue else { throw invalid("\(collection.rawValue) must be a map from provider IDs") }
            for (id, resource) in map {
                guard collection.accepts(id) else { throw invalid("\(collection.rawValue) cannot hold the provider \(id)") }
                guard let fields = resource.objectValue else { throw invalid("\(collection.rawValue).\(id) must be an object") }
                try validateIdp(fields, path: "\(collection.rawValue).\(id)", collection: collection)
            }
        }
    }

    private static func validateIdp(_ fields: [String: JSONValue], path: String, collection: IdpCollection) throws(AuthError) {
        func string(_ key: String, _ value: JSONValue?) throws(AuthError) {
            guard let value else { return }
            guard case .string(let s) = value, s.utf8.count <= 4096 else { throw invalid("\(path).\(key) must be a string") }
        }
        if let enabled = fields["enabled"], enabled.boolValue == nil { throw invalid("\(path).enabled must be a boolean") }
        for key in ["clientId", "clientSecret", "displayName"] { try string(key, fields[key]) }
        switch collection {
        case .defaultSupported:
            guard let apple = fields["appleSignInConfig"] else { break }
            guard apple.objectValue != nil else { throw invalid("\(path).appleSignInConfig must be an object") }
            if let ids = apple["bundleIds"] {
                guard let list = ids.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                    throw invalid("\(path).appleSignInConfig.bundleIds must be a list of strings")
                }
            }
            if let flow = apple["codeFlowConfig"] {
                guard let flowFields = flow.objectValue else { throw invalid("\(path).appleSignInConfig.codeFlowConfig must be an object") }
                for key in ["teamId", "keyId", "privateKey"] { try string("appleSignInConfig.codeFlowConfig.\(key)", flowFields[key]) }
            }
        case .oauth:
            guard let clientID = fields["clientId"]?.stringValue, !clientID.isEmpty else { throw invalid("\(path).clientId is required") }
            guard let issuer = fields["issuer"]?.stringValue, let url = ContinueURL(issuer), url.scheme == "https" || url.scheme == "http" else {
                throw invalid("\(path).issuer must be an absolute http(s) URL")
            }
            if let type = fields["responseType"] {
                guard let typeFields = type.objectValue, typeFields.values.allSatisfy({ $0.boolValue != nil }) else {
                    throw invalid("\(path).responseType must be an object of booleans")
                }
            }
        case .saml:
            try validateSAML(fields, path: path)
        }
    }
}

/// One configured provider, as sign-in reads it.
package struct IdentityProviderConfig: Sendable, Equatable {
    /// One of ``ProjectConfig/defaultSupportedIdps``, `oidc.*` or `saml.*`.
    package var providerID: String
    /// Whether users may sign in with it (`enabled`, false when absent).
    package var enabled: Bool
    /// `clientId`.
    package var clientID: String?
    /// `clientSecret` (code flow).
    package var clientSecret: String?
    /// An OIDC provider's `issuer`.
    package var issuer: String?
    /// The accepted `aud` values: the client ID, and for Apple the apps' bundle IDs.
    package var audiences: [String]
    /// Sign in with Apple's `appleSignInConfig.codeFlowConfig` (`teamId`, `keyId`, `privateKey`), which makes the
    /// token endpoint's client secret when `clientSecret` is not set.
    package var appleCodeFlow: [String: JSONValue]?
    /// A SAML provider's `idpConfig` and `spConfig` (`saml.*` only).
    package var saml: SAMLProviderSettings?

    /// Reads a stored resource.
    package init(providerID: String, resource: [String: JSONValue]) {
        self.providerID = providerID
        enabled = resource["enabled"]?.boolValue ?? false
        clientID = resource["clientId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        clientSecret = resource["clientSecret"]?.stringValue
        issuer = resource["issuer"]?.stringValue
        let bundleIDs = resource["appleSignInConfig"]?["bundleIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
        audiences = ([clientID].compactMap { $0 } + bundleIDs).filter { !$0.isEmpty }
        appleCodeFlow = resource["appleSignInConfig"]?["codeFlowConfig"]?.objectValue
        saml = ProjectConfig.IdpCollection.saml.accepts(providerID) ? SAMLProviderSettings(resource: resource) : nil
    }
}

/// A SAML provider's settings as sign-in reads them (validated when stored, ``ProjectConfig/validateSAML(_:path:)``).
package struct SAMLProviderSettings: Sendable, Equatable {
    /// `idpConfig.idpEntityId`.
    package var idpEntityID: String
    /// `idpConfig.ssoUrl`: where AuthnRequests go (HTTP-Redirect binding).
    package var ssoURL: String
    /// `idpConfig.idpCertificates[].x509Certificate`, PEM.
    package var certificates: [String]
    /// `idpConfig.signRequest`.
    package var signRequest: Bool
    /// `spConfig.spEntityId`.
    package var spEntityID: String
    /// `spConfig.callbackUri`: the ACS URL the IdP posts responses to.
    package var callbackURI: String

    init(resource: [String: JSONValue]) {
        let idp = resource["idpConfig"]
        let sp = resource["spConfig"]
        idpEntityID = idp?["idpEntityId"]?.stringValue ?? ""
        ssoURL = idp?["ssoUrl"]?.stringValue ?? ""
        certificates = idp?["idpCertificates"]?.arrayValue?.compactMap { $0["x509Certificate"]?.stringValue } ?? []
        signRequest = idp?["signRequest"]?.boolValue ?? false
        spEntityID = sp?["spEntityId"]?.stringValue ?? ""
        callbackURI = sp?["callbackUri"]?.stringValue ?? ""
    }
}
