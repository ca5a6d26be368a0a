import FlintCore
import FlintServer

/// The console's forms of the project's generic OIDC providers (`oauthIdpConfigs`, `oidc.*`) and SAML providers
/// (`inboundSamlConfigs`, `saml.*`): what a form's fields make of the resource, and which field an error of the admin
/// API's rules (``IdpConfigAdmin``, which saves them) belongs to. A client secret is write-only: never shown back, a
/// blank field keeps the stored one, and "remove the secret" clears it.
enum ConsoleIdentityProviders {
    /// The collection a page's `{provider}` names: `oidc` or `saml` (a new provider's form), else a provider ID's own
    /// (the built-in providers have their forms on the settings page).
    static func collection(of name: String) -> ProjectConfig.IdpCollection? {
        switch name {
        case "oidc": .oauth
        case "saml": .saml
        default: ProjectConfig.collection(of: name).flatMap { $0 == .defaultSupported ? nil : $0 }
        }
    }

    /// The page's address of a new provider's form in `collection`.
    static func newName(_ collection: ProjectConfig.IdpCollection) -> String { collection == .saml ? "saml" : "oidc" }

    /// The provider ID's prefix in `collection`.
    static func prefix(_ collection: ProjectConfig.IdpCollection) -> String { newName(collection) + "." }

    /// The provider ID a new provider's form names: what was typed after the prefix (the prefix once, if typed too).
    static func providerID(_ form: [String: String], _ collection: ProjectConfig.IdpCollection) -> String {
        let typed = (form["providerId"] ?? "").trimmingSpaces
        return typed.hasPrefix(prefix(collection)) ? typed : prefix(collection) + typed
    }

    /// Each form field, with the resource path an `INVALID_CONFIG` detail names it by.
    static func fields(_ collection: ProjectConfig.IdpCollection) -> [(field: String, path: String)] {
        let common = [("enabled", "enabled"), ("displayName", "displayName")]
        switch collection {
        case .saml:
            return common + [
                ("idpEntityId", "idpConfig.idpEntityId"), ("ssoUrl", "idpConfig.ssoUrl"), ("certificates", "idpConfig.idpCertificates"),
                ("signRequest", "idpConfig.signRequest"), ("spEntityId", "spConfig.spEntityId"), ("callbackUri", "spConfig.callbackUri"),
            ]
        default:
            return common + [("clientId", "clientId"), ("clientSecret", "clientSecret"), ("issuer", "issuer"), ("responseType", "responseType")]
        }
    }

    /// The field `error` belongs to: the provider ID for a taken or invalid one, else the field whose path its detail
    /// names (the longest such path), else the form as a whole.
    static func field(for error: AuthError, _ collection: ProjectConfig.IdpCollection) -> String {
        if error == .invalidProviderID || error == .idpConfigExists { return "providerId" }
        let detail = error.detail ?? ""
        return fields(collection).filter { detail.contains("." + $0.path) }.max { $0.path.count < $1.path.count }?.field ?? "form"
    }

    /// What a form sets: the resource's fields (a create's body, an update's patch) and the `updateMask` of an update —
    /// every field the form shows, and the client secret only when one was typed or its removal ticked.
    static func patch(_ form: [String: String], _ collection: ProjectConfig.IdpCollection) -> (fields: [String: JSONValue], mask: [String]) {
        func text(_ name: String) -> JSONValue? {
            let value = (form[name] ?? "").trimmingSpaces
            return value.isEmpty ? nil : .string(value)
        }
        var resource: [String: JSONValue] = ["enabled": ConsoleSettingsGroup.flag(form, "enabled")]
        resource["displayName"] = text("displayName")
        switch collection {
        case .saml:
            var idp: [String: JSONValue] = ["signRequest": ConsoleSettingsGroup.flag(form, "signRequest")]
            (idp["idpEntityId"], idp["ssoUrl"]) = (text("idpEntityId"), text("ssoUrl"))
            idp["idpCertificates"] = .array(certificates(form["certificates"] ?? "").map { JSONValue.object(["x509Certificate": .string($0)]) })
            var sp: [String: JSONValue] = [:]
            (sp["spEntityId"], sp["callbackUri"]) = (text("spEntityId"), text("callbackUri"))
            (resource["idpConfig"], resource["spConfig"]) = (.object(idp), .object(sp))
            return (resource, ["enabled", "displayName"] + Self.fields(collection).compactMap { $0.path.contains(".") ? $0.path : nil })
        default:
            (resource["clientId"], resource["issuer"]) = (text("clientId"), text("issuer"))
            let code = form["flow"] == "code"
            resource["responseType"] = ["code": .bool(code), "idToken": .bool(!code)]
            var mask = ["enabled", "displayName", "clientId", "issuer", "responseType"]
            if let secret = text("clientSecret") {
                resource["clientSecret"] = secret
                mask.append("clientSecret")
            } else if form["clearSecret"] == "true" {
                mask.append("clientSecret")
            }
            return (resource, mask)
        }
    }

    /// The PEM certificates a text holds, each from its `BEGIN` line to its `END` line; a text with none is one entry
    /// as typed (for the rules to refuse), an empty one none.
    static func certificates(_ text: String) -> [String] {
        var found: [String] = []
        var block: [String]?
        for line in text.split(whereSeparator: \.isNewline).map({ String($0).trimmingSpaces }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                block = [line]
            } else if var lines = block {
                lines.append(line)
                block = lines
                if line == "-----END CERTIFICATE-----" {
                    found.append(lines.joined(separator: "\n"))
                    block = nil
                }
            }
        }
        let typed = text.trimmingSpaces
        return found.isEmpty && !typed.isEmpty ? [typed] : found
    }

    /// A provider's row in the list of providers: its ID, name, kind, whether it is on, and where it signs users in.
    static func row(_ id: String, _ collection: ProjectConfig.IdpCollection, _ resource: [String: JSONValue]) -> [String: Any] {
        let saml = collection == .saml
        let at = saml ? resource["idpConfig"]?["ssoUrl"]?.stringValue : resource["issuer"]?.stringValue
        return [
            "id": id, "name": resource["displayName"]?.stringValue ?? id, "kind": saml ? "SAML" : "OpenID Connect",
            "enabled": resource["enabled"]?.boolValue ?? false, "at": at ?? "", "href": "/console/providers/\(id)",
        ]
    }

    /// A SAML provider's published SP certificates as its page shows them: the first signs (Flint answers the signing
    /// key's first), a later one is new (waiting for its activation) when it expires after it, old (waiting for its
    /// retirement) otherwise.
    static func spCertificates(_ published: [JSONValue]) -> [[String: Any]] {
        let signingExpiry = published.first?["expiresAt"]?.stringValue ?? ""
        return published.enumerated().compactMap { index, entry in
            guard let pem = entry["x509Certificate"]?.stringValue else { return nil }
            let role =
                index == 0
                ? "Signs the authentication requests"
                : (entry["expiresAt"]?.stringValue ?? "") > signingExpiry
                    ? "New: published, signs once activated" : "Previous: no longer signs, published until retired"
            return ["pem": pem, "role": role, "signing": index == 0, "domID": index == 0 ? "spCertificate" : "spCertificate-\(index + 1)"]
        }
    }

    /// A provider's page data: its resource's values as the form shows them (never the client secret, only whether one
    /// is set), `form`'s values instead when a refused form is shown again.
    static func data(
        _ id: String?, _ collection: ProjectConfig.IdpCollection, resource: [String: JSONValue]?, form: [String: String]? = nil,
        publicBaseURL: String
    ) -> [String: Any] {
        var data: [String: Any] = [
            "collection": collection.rawValue, "saml": collection == .saml, "oidc": collection == .oauth, "prefix": prefix(collection),
            "isNew": id == nil, "secretSet": !(resource?["clientSecret"]?.stringValue ?? "").isEmpty,
        ]
        if let id { (data["providerId"], data["slug"]) = (id, ConsoleProviders.slug(id)) }
        let published = spCertificates(resource?["spConfig"]?["spCertificates"]?.arrayValue ?? [])
        (data["spCertificates"], data["hasSPCertificates"]) = (published, !published.isEmpty)
        let idp = resource?["idpConfig"]
        let sp = resource?["spConfig"]
        var values: [String: Any] = [
            "enabled": resource?["enabled"]?.boolValue ?? (resource == nil), "displayName": resource?["displayName"]?.stringValue ?? "",
            "clientId": resource?["clientId"]?.stringValue ?? "", "issuer": resource?["issuer"]?.stringValue ?? "",
            "codeFlow": resource?["responseType"]?["code"]?.boolValue ?? (resource == nil),
            "idpEntityId": idp?["idpEntityId"]?.stringValue ?? "", "ssoUrl": idp?["ssoUrl"]?.stringValue ?? "",
            "certificates": (idp?["idpCertificates"]?.arrayValue ?? []).compactMap { $0["x509Certificate"]?.stringValue }.joined(separator: "\n"),
            "signRequest": idp?["signRequest"]?.boolValue ?? false,
            "spEntityId": sp?["spEntityId"]?.stringValue ?? publicBaseURL,
            "callbackUri": sp?["callbackUri"]?.stringValue ?? publicBaseURL + "/__/auth/handler",
        ]
        if let form {
            for name in ["displayName", "clientId", "issuer", "idpEntityId", "ssoUrl", "certificates", "spEntityId", "callbackUri"] {
                values[name] = form[name] ?? ""
            }
            (values["enabled"], values["signRequest"], values["codeFlow"]) = (
                form["enabled"] == "true", form["signRequest"] == "true", form["flow"] == "code"
            )
            if id == nil { data["typedId"] = form["providerId"] ?? "" }
        }
        return data.merging(values) { $1 }
    }
}
