import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The users pages: the searchable list, an account's detail, and its actions (each confirmed, then run through
/// the admin API's flow).
extension ConsoleRoutes {
    func users(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let list = ConsoleUserList(ConsoleForm.fields(request.uri.query ?? ""))
        var data: [String: Any] = ["q": list.search ?? ""]
        // The search form keeps the order and filters, the filter form the search.
        data["kept"] = list.fields().filter { $0.key != "q" }.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] }
        let (page, identities) =
            if let q = list.search { try await flow.searchUsers(q, list: list) } else { try await flow.listUsers(list.listing) }
        data["users"] = rows(page.users, identities, locks: try await flow.heldLocks(of: page.users))
        data["caption"] =
            list.search != nil
            ? (list.isFiltered ? "Accounts matching the search and the filters" : "Accounts matching the search")
            : list.isFiltered ? "Accounts matching the filters" : "Every account"
        if let next = page.next { data["next"] = "/console/users?" + Self.queryString(list.fields(cursor: next)) }
        if page.scanStopped {
            data["scanStopped"] =
                list.search != nil
                ? "The search matches more than \(ConsoleFlow.searchMatchLimit) accounts: only the first \(ConsoleFlow.searchMatchLimit) by user ID are ordered and filtered. Narrow the search to see the others."
                : "This page read \(ConsoleUserListing.defaultScanLimit) accounts without filling up: more may match after it."
        }
        data.merge(listControls(list)) { $1 }
        if let region = flow.node.config.current.defaultPhoneRegion { data["region"] = region }
        if let deleted = ConsoleForm.query("deleted", in: request) { data["caption"] = "Account \(deleted) deleted." }
        return pages.page("users", title: "Users", data, caller: caller)
    }

    /// The list's rows: each account with its providers' badges, its state (disabled, locked), and its times short with
    /// the full time.
    private func rows(_ users: [UserRecord], _ identities: [String: [FederatedIdentityRecord]], locks: [String: AccountLock]) -> [[String: Any]] {
        users.map { user in
            var row: [String: Any] = [
                "localId": user.localID, "email": user.email ?? "", "phone": user.phoneNumber ?? "", "name": user.displayName ?? "",
                "created": ConsoleUserBadges.time(user.createdAt), "disabled": user.disabled,
                "providers": ConsoleUserBadges.providers(of: user, identities: identities[user.localID] ?? []).map(ConsoleUserBadges.badge),
            ]
            if let last = user.lastLoginAt { row["lastSignIn"] = ConsoleUserBadges.time(last) }
            if let lock = locks[user.localID] { row["lockedUntil"] = Self.time(lock.lockedUntil) }
            return row
        }
    }

    /// The sort links of the column heads, and the filter form's choices, for `list`.
    private func listControls(_ list: ConsoleUserList) -> [String: Any] {
        func sort(_ order: ConsoleUserListing.Order, _ label: String) -> [String: Any] {
            var fields = list.fields()
            let current = list.order == order
            // The same column again turns the direction; another starts ascending (times: newest first).
            let descending = current ? !list.descending : order == .created || order == .lastSignIn
            fields["sort"] = order == .userID ? nil : order.rawValue
            fields["dir"] = descending ? "desc" : nil
            var head: [String: Any] = ["label": label, "href": "/console/users?" + Self.queryString(fields)]
            if current { head["ariaSort"] = list.descending ? "descending" : "ascending" }
            return head
        }
        func options(_ values: [(String, String)], _ chosen: String?) -> [[String: Any]] {
            values.map { ["value": $0.0, "label": $0.1, "selected": $0.0 == (chosen ?? "")] }
        }
        let fields = list.fields()
        return [
            "sortID": sort(.userID, "User ID"), "sortEmail": sort(.email, "Email"), "sortCreated": sort(.created, "Created"),
            "sortSignIn": sort(.lastSignIn, "Last sign-in"),
            "orders": options(
                [("id", "User ID"), ("created", "Created"), ("signin", "Last sign-in"), ("email", "Email")], list.order.rawValue),
            "directions": options([("", "Ascending"), ("desc", "Descending")], fields["dir"]),
            "sizes": options(ConsoleUserList.pageSizes.map { (String($0), String($0)) }, String(list.size)),
            "providerChoices": options([("", "Any")] + ConsoleUserList.providers.map { ($0, $0) }, list.provider),
            "states": options([("", "Any"), ("enabled", "Enabled"), ("disabled", "Disabled")], fields["state"]),
            "verifiedChoices": options([("", "Any"), ("yes", "Verified"), ("no", "Not verified")], fields["verified"]),
            "mfaChoices": options([("", "Any"), ("yes", "With a second factor"), ("no", "Without")], fields["mfa"]),
            "from": list.from ?? "", "to": list.to ?? "",
        ]
    }

    func user(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let id = context.parameters.get("uid") ?? ""
        guard let account = try await flow.account(id) else {
            return pages.message("Users", "There is no account \(id).", link: ("/console/users", "Back to users"), caller: caller, status: .notFound)
        }
        var data = detail(account)
        if let until = try await flow.locks.state(of: id).lockedUntil {
            data["lockedUntil"] = until
            data["actions"] = [["action": "unlock", "label": "Unlock"]] + (data["actions"] as? [[String: Any]] ?? [])
        }
        data["sessions"] = try await flow.sessions.list(localID: id).map(Self.sessionRow)
        if let done = ConsoleForm.query("done", in: request).flatMap(ConsoleUserAction.init(rawValue:)) {
            data["notice"] = "Done: \(done.title.lowercased())."
        }
        if ConsoleForm.query("created", in: request) != nil { data["notice"] = "Account created." }
        return pages.page("user", title: "User \(id)", data, caller: caller)
    }

    func act(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let id = context.parameters.get("uid") ?? ""
            guard let action = form["action"].flatMap(ConsoleUserAction.init(rawValue:)) else {
                return pages.message("Refused", "Unknown action.", caller: caller, status: .badRequest)
            }
            let claims = action == .claims ? (form["claims"] ?? "") : nil
            guard form["confirmed"] == "yes" else {
                var data: [String: Any] = ["localId": id, "action": action.rawValue, "question": "\(action.title) \(id)?"]
                if let claims { data["claims"] = claims }
                if let factor = form["factor"] { data["factor"] = factor }
                if let passkey = form["passkey"] { data["passkey"] = passkey }
                if let session = form["session"] { data["session"] = session }
                return pages.page("confirm", title: action.title, data, caller: caller)
            }
            do {
                try await flow.perform(
                    action, on: id, claims: claims, factor: form["factor"], passkey: form["passkey"], session: form["session"], by: caller,
                    ip: context.clientIP)
            } catch let error as AuthError {
                guard action == .claims, let account = try await flow.account(id) else {
                    return pages.message(
                        action.title, error.message, link: ("/console/users/\(id)", "Back to the account"), caller: caller, status: .badRequest)
                }
                var data = detail(account)
                data["draft"] = claims ?? ""
                data["claimsError"] = error.message
                return pages.page("user", title: "User \(id)", data, caller: caller, status: .badRequest)
            }
            if action == .delete { return ConsolePages.redirect("/console/users?" + Self.queryString(["deleted": id])) }
            return ConsolePages.redirect("/console/users/\(id)?done=\(action.rawValue)")
        }
    }

    /// The detail page's data for an account as `accounts:lookup` answers it.
    private func detail(_ account: AccountJSON) -> [String: Any] {
        let factors: [[String: Any]] = (account.mfaInfo ?? []).map { factor in
            [
                "id": factor.mfaEnrollmentId, "kind": factor.totpInfo != nil ? "TOTP" : "SMS", "name": factor.displayName ?? "",
                "phone": factor.unobfuscatedPhoneInfo ?? factor.phoneInfo ?? "", "enrolled": factor.enrolledAt,
            ]
        }
        let passkeys: [[String: Any]] = (account.passkeyInfo ?? []).map { ["id": $0.credentialId, "name": $0.name ?? ""] }
        var actions: [[String: Any]] = [
            account.disabled ? ["action": "enable", "label": "Enable"] : ["action": "disable", "label": "Disable", "danger": true],
            ["action": "revoke", "label": "Revoke sessions", "danger": true],
            ["action": "delete", "label": "Delete", "danger": true],
        ]
        if account.email != nil {
            actions.insert(contentsOf: [["action": "sendPasswordReset", "label": "Send password reset"]], at: 0)
            if !account.emailVerified { actions.insert(["action": "sendVerification", "label": "Send verification"], at: 1) }
        }
        var data: [String: Any] = [
            "localId": account.localId, "emailVerified": account.emailVerified,
            "created": Self.time(Int64(account.createdAt) ?? 0),
            "lastSignIn": account.lastLoginAt.flatMap(Int64.init).map(Self.time) ?? "never",
            "lastRefresh": account.lastRefreshAt ?? "never", "disabled": account.disabled,
            "providers": account.providerUserInfo.map { ["providerId": $0.providerId, "rawId": $0.rawId] }, "factors": factors,
            "passkeys": passkeys, "draft": account.customAttributes ?? "", "actions": actions,
        ]
        // Absent values stay out of the data, so the page's `{{^email}}—{{/email}}` sections show a dash: an optional
        // wrapped in `Any` would render as Swift's `nil`.
        let optional = ["email": account.email, "phone": account.phoneNumber, "name": account.displayName, "claims": account.customAttributes]
        for (key, value) in optional { if let value, !value.isEmpty { data[key] = value } }
        return data
    }

    /// A session's row on the account's page: device, addresses, times and sign-in method.
    static func sessionRow(_ session: RefreshTokenRecord) -> [String: Any] {
        var method = session.signInProvider
        if let factor = session.secondFactor { method += " + \(factor.rawValue)" }
        return [
            "id": session.sessionID, "device": session.device ?? "unknown", "firstIp": session.firstIP ?? "—", "lastIp": session.lastIP ?? "—",
            "created": time(session.createdAt), "lastUsed": time(session.lastUsedAt), "method": method,
        ]
    }

    /// An instant (ms) as the pages show it: RFC 3339 in UTC.
    static func time(_ ms: Int64) -> String { RFC3339.format(milliseconds: ms) }

    /// An instant as the pages show it (RFC 3339, UTC).
    static func time(_ instant: Instant) -> String { time(instant.millisecondsSince1970) }

    /// `name=value&…`, percent-encoded.
    static func queryString(_ fields: [String: String]) -> String {
        fields.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key)=\(encode($0.value))" }.joined(separator: "&")
    }

    /// A query component with everything but unreserved characters escaped.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(UnicodeScalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~".contains(c)) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
