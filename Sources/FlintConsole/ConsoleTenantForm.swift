import FlintCore
import FlintServer
import FlintStore

/// The tenants pages' data: the picker's pages and a tenant's form, read from and written as the admin API's `Tenant`
/// resource (``TenantConfig``): its display name, sign-in switches, second factors (`mfaConfig`: its state, SMS and
/// TOTP; the section's other fields kept) and test phone numbers (one `+number code` a line).
enum ConsoleTenantForm {
    /// Tenants the picker lists a page.
    static let pageSize = 50

    /// The picker's page: the tenants whose ID starts with `query` after `after` in ID order, up to ``pageSize``, and
    /// where the next page starts. An operator limited to `limit` gets those of its tenants that match (the project
    /// is not a row: the page offers it apart); the others, a page of the store's tenants (one index range, whatever
    /// their number).
    static func page(
        query: String, after: String?, limit: [TenantID]?, admin: TenantAdmin, cache: TenantCache
    ) async throws -> (entries: [(id: String, tenant: TenantConfig?)], next: String?) {
        if let limit {
            let ids = limit.map(\.rawValue).filter { id in !id.isEmpty && id.hasPrefix(query) && (after.map { id > $0 } ?? true) }
            var entries: [(id: String, tenant: TenantConfig?)] = []
            for id in ids.prefix(pageSize) {
                let tenant = try await cache.tenant(id)
                entries.append((id, tenant))
            }
            return (entries, ids.count > pageSize ? entries.last?.id : nil)
        }
        guard query.isEmpty || TenantConfig.isTenantID(query) else { return ([], nil) }
        // The ID equal to the query itself, then the IDs after it (which hold every longer one it starts).
        var found: [(id: String, tenant: TenantConfig?)] = []
        if after == nil, !query.isEmpty, let exact = try await cache.tenant(query) { found.append((query, exact)) }
        let listed = try await admin.list(pageSize: pageSize + 1, pageToken: after ?? (query.isEmpty ? nil : query)).tenants
        found += listed.prefix { query.isEmpty || $0.id.hasPrefix(query) }.map { (id: $0.id, tenant: Optional($0.tenant)) }
        let entries = Array(found.prefix(pageSize))
        return (entries, found.count > pageSize ? entries.last?.id : nil)
    }

    /// A picker row: the tenant, its switches, the page it opens in `section` and its own page.
    static func row(_ id: String, _ tenant: TenantConfig?, section: String) -> [String: Any] {
        var row: [String: Any] = ["id": id, "open": section + "?tenant=" + id, "edit": "/console/tenants/" + id]
        if let tenant {
            row["displayName"] = tenant.displayName
            row["methods"] = methods(tenant)
            row["disabled"] = tenant.disableAuth
        } else {
            row["missing"] = true
        }
        return row
    }

    /// The sign-in methods a tenant allows, in words.
    static func methods(_ tenant: TenantConfig) -> String {
        let on = [
            (tenant.allowPasswordSignup, "password"), (tenant.enableEmailLinkSignin, "email link"), (tenant.enableAnonymousUser, "anonymous"),
        ].filter { $0.0 }.map { $0.1 }
        return on.isEmpty ? "none" : on.joined(separator: ", ")
    }

    /// A new tenant's resource from the create form.
    static func newTenant(_ form: [String: String]) -> [String: JSONValue] {
        var body: [String: JSONValue] = ["displayName": .string((form["displayName"] ?? "").trimmingSpaces)]
        for field in switches { body[field] = .bool(form[field] == "on") }
        return body
    }

    /// The sign-in switches the forms set.
    static let switches = ["allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth"]

    /// The MFA states a tenant may have.
    static let mfaStates = ["DISABLED", "ENABLED", "MANDATORY"]

    /// A tenant page's data: its fields as the form shows them.
    static func data(_ id: String, _ tenant: TenantConfig) -> [String: Any] {
        let doc = tenant.document
        let mfa = doc["mfaConfig"]?.objectValue ?? [:]
        let state = mfa["state"]?.stringValue ?? "DISABLED"
        let numbers = (doc["testPhoneNumbers"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.stringValue ?? "")" }
        var data: [String: Any] = [
            "id": id, "displayName": tenant.displayName, "testPhoneNumbers": numbers.joined(separator: "\n"),
            "mfaStates": mfaStates.map { ["value": $0, "selected": $0 == state] as [String: Any] },
            "mfaSMS": (mfa["enabledProviders"]?.arrayValue ?? []).contains(.string("PHONE_SMS")),
            "mfaTOTP": (mfa["providerConfigs"]?.arrayValue ?? []).contains {
                $0["totpProviderConfig"] != nil && $0["state"]?.stringValue == "ENABLED"
            },
            "users": "/console/users?tenant=" + id, "transfers": "/console/import?tenant=" + id, "audit": "/console/security?tenant=" + id,
            "providers": "/console/providers?tenant=" + id,
        ]
        for field in switches { data[field] = doc[field]?.boolValue ?? false }
        return data
    }

    /// A refused form's values, shown again in place of the stored ones.
    static func echo(_ form: [String: String]) -> [String: Any] {
        var echo: [String: Any] = ["displayName": form["displayName"] ?? "", "testPhoneNumbers": form["testPhoneNumbers"] ?? ""]
        for field in switches { echo[field] = form[field] == "on" }
        return echo
    }

    /// The tenant form's patch and update mask over `current`: the display name, the switches, the MFA section (its
    /// other fields kept) and the test numbers.
    /// - Throws: `INVALID_ARGUMENT` for a test-number line that is not a number and a code.
    static func patch(_ form: [String: String], current: TenantConfig) throws(AuthError) -> (patch: [String: JSONValue], mask: [String]) {
        var patch: [String: JSONValue] = ["displayName": .string((form["displayName"] ?? "").trimmingSpaces)]
        for field in switches { patch[field] = .bool(form[field] == "on") }
        var mfa = current.document["mfaConfig"]?.objectValue ?? [:]
        let state = form["mfaState"] ?? "DISABLED"
        guard mfaStates.contains(state) else {
            throw AuthError.invalidArgument("mfaConfig.state must be one of \(mfaStates.joined(separator: ", ")).")
        }
        mfa["state"] = .string(state)
        let others = (mfa["enabledProviders"]?.arrayValue ?? []).filter { $0 != .string("PHONE_SMS") }
        mfa["enabledProviders"] = .array(others + (form["mfaSMS"] == "on" ? [.string("PHONE_SMS")] : []))
        let kept = (mfa["providerConfigs"]?.arrayValue ?? []).filter { $0["totpProviderConfig"] == nil }
        let totp: JSONValue = ["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": .number(5)]]
        mfa["providerConfigs"] = .array(kept + (form["mfaTOTP"] == "on" ? [totp] : []))
        patch["mfaConfig"] = .object(mfa)
        var numbers: [String: JSONValue] = [:]
        for line in (form["testPhoneNumbers"] ?? "").split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            let parts = line.split(whereSeparator: \.isWhitespace)
            guard parts.count == 2 else { throw AuthError.invalidArgument("testPhoneNumbers: write one number and its code a line (\(line)).") }
            numbers[String(parts[0])] = .string(String(parts[1]))
        }
        patch["testPhoneNumbers"] = .object(numbers)
        return (patch, ["displayName"] + switches + ["mfaConfig", "testPhoneNumbers"])
    }

    /// The form field an error of the admin API concerns, beside which the page shows it (`general`: above the form).
    static func field(of error: AuthError) -> String {
        let text = error.message.lowercased()
        if text.contains("display_name") || text.contains("displayname") { return "displayName" }
        if text.contains("testphonenumbers") || text.contains("phone") { return "testPhoneNumbers" }
        if text.contains("mfa") { return "mfa" }
        return "general"
    }
}
