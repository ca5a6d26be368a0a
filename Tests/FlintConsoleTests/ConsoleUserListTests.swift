import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's users list: providers, state, dates, order, page size, filters, bulk actions")
struct ConsoleUserListTests {
    /// 29 Nov 2026, 04:38:12.345 UTC.
    static let created: Int64 = 1_795_927_092_345

    /// A node with an operator of `role` signed in and `users` stored, for `body`.
    private func withUsers(
        role: ConsoleRole = .admin, _ users: [UserRecord], identities: [FederatedIdentityRecord] = [],
        _ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.store.write { tx in
            for user in users { try await tx.insertUser(user) }
            for identity in identities { try await tx.linkFederatedIdentity(identity) }
        }
        try await node.run { api in
            let op = try await api.addOperator("Ops@Example.com", role: role, password: consoleTestPassword, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: consoleTestPassword), node)
        }
    }

    /// `count` accounts `u00`, `u01`…, created a minute apart from ``created``, every third with an email.
    static func accounts(_ count: Int) -> [UserRecord] {
        (0..<count).map { n in
            var user = UserRecord(
                localID: "u" + (n < 10 ? "0" : "") + String(n), createdAt: Instant(millisecondsSince1970: created + Int64(n) * 60_000),
                validSince: Instant(secondsSince1970: 1))
            if n % 3 == 0 { user.email = "user\(n)@example.com" }
            user.phoneNumber = n % 3 == 1 ? "+1650555" + String(1000 + n) : nil
            return user
        }
    }

    /// The user IDs the page's rows link to, in order.
    static func rowIDs(_ text: String) -> [String] {
        text.components(separatedBy: #"<td data-label="User ID"><a href="/console/users/"#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// The page's next-page link, unescaped.
    static func next(_ text: String) -> String? {
        guard let end = text.range(of: #"" rel="next">"#) else { return nil }
        let start = text[..<end.lowerBound].range(of: #"href=""#, options: .backwards)?.upperBound ?? end.lowerBound
        return String(text[start..<end.lowerBound]).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("each row names its providers with an icon (an anonymous account reads anonymous), its state, and short dates with the full time")
    func rows() async throws {
        var anonymous = UserRecord(localID: "anon", createdAt: Instant(millisecondsSince1970: Self.created), validSince: 1)
        anonymous.lastLoginAt = Instant(millisecondsSince1970: Self.created + 3_600_000)
        var both = UserRecord(localID: "both", phoneNumber: "+16505551234", createdAt: 1_767_571_200_000, validSince: 1)
        both.email = "both@example.com"
        both.passwordHash = "h"
        both.disabled = true
        let google = UserRecord(localID: "goog", createdAt: 1_767_571_200_000, validSince: 1)
        let identity = FederatedIdentityRecord(localID: "goog", providerID: "google.com", rawID: "g-1")
        try await withUsers([anonymous, both, google], identities: [identity]) { api, op, _ in
            let page = try await api.console(.get, "/console/users", cookie: op.cookie)
            #expect(page.status == .ok)
            let rows = page.text.components(separatedBy: "<tr>").filter { $0.contains(#"data-label="User ID""#) }
            let anon = try #require(rows.first { $0.contains("/console/users/anon\"") })
            #expect(anon.contains(#"<svg class="icon""#) && anon.contains("</svg> anonymous</li>"))
            #expect(anon.contains(#"<time datetime="2026-11-29T04:38:12.345Z" title="2026-11-29T04:38:12.345Z">29 Nov 2026, 04:38</time>"#))
            #expect(anon.contains(">29 Nov 2026, 05:38</time>"), "the last sign-in")
            #expect(anon.contains(#"<span class="tag">enabled</span>"#))
            let row = try #require(rows.first { $0.contains("/console/users/both\"") })
            #expect(row.contains("</svg> password</li>") && row.contains("</svg> phone</li>"))
            #expect(row.contains(#"<span class="tag off">disabled</span>"#) && row.contains(">5 Jan 2026, 00:00</time>") && row.contains("never"))
            let googleRow = try #require(rows.first { $0.contains("/console/users/goog\"") })
            #expect(googleRow.contains("</svg> google.com</li>") && !googleRow.contains("anonymous"))
            #expect(!page.text.contains("style="), "no inline style: the page's policy allows none")
        }
    }

    @Test("the list sorts by creation, last sign-in or email both ways, in pages of the chosen size, each page a keyset page")
    func order() async throws {
        var users = Self.accounts(30)
        for n in users.indices where n % 2 == 0 { users[n].lastLoginAt = Instant(millisecondsSince1970: Self.created + Int64(100 - n) * 1000) }
        let all = users
        try await withUsers(all) { api, op, _ in
            let newest = try await api.console(.get, "/console/users?sort=created&dir=desc&size=25", cookie: op.cookie)
            #expect(Self.rowIDs(newest.text) == all.reversed().prefix(25).map(\.localID))
            #expect(newest.text.contains(#"aria-sort="descending"><a href="/console/users?size=25&amp;sort=created">Created</a>"#))
            let next = try #require(Self.next(newest.text))
            #expect(next.contains("cursor=") && !next.contains("offset"))
            let rest = try await api.console(.get, next, cookie: op.cookie)
            #expect(Self.rowIDs(rest.text) == all.reversed().suffix(5).map(\.localID))
            #expect(Self.next(rest.text) == nil)

            let signIns = try await api.console(.get, "/console/users?sort=signin&dir=desc&size=100", cookie: op.cookie)
            let signedIn = all.filter { $0.lastLoginAt != nil }.sorted { $0.lastLoginAt! > $1.lastLoginAt! }.map(\.localID)
            let never = all.filter { $0.lastLoginAt == nil }.map(\.localID).sorted(by: >)
            #expect(Self.rowIDs(signIns.text) == signedIn + never, "never signed in last")

            let byEmail = try await api.console(.get, "/console/users?sort=email&size=25", cookie: op.cookie)
            let emails = all.filter { $0.email != nil }.sorted { $0.email! < $1.email! }.map(\.localID)
            #expect(Self.rowIDs(byEmail.text).prefix(emails.count) == emails[...])

            let defaultPage = try await api.console(.get, "/console/users?size=7", cookie: op.cookie)
            #expect(Self.rowIDs(defaultPage.text).count == 30, "a size the list does not offer is the default, 50")
        }
    }

    @Test("filters (provider, state, email verified, second factor, created between) combine with the order and the pages")
    func filters() async throws {
        var users = Self.accounts(12)
        users[3].disabled = true
        users[6].disabled = true
        users[6].emailVerified = true
        users[9].passwordHash = "h"
        let all = users
        try await withUsers(all, identities: [FederatedIdentityRecord(localID: "u02", providerID: "github.com", rawID: "octo")]) { api, op, node in
            func ids(_ query: String) async throws -> [String] {
                Self.rowIDs(try await api.console(.get, "/console/users?" + query, cookie: op.cookie).text)
            }
            #expect(try await ids("provider=phone") == ["u01", "u04", "u07", "u10"])
            #expect(try await ids("provider=github.com") == ["u02"])
            #expect(try await ids("provider=password") == ["u09"])
            #expect(try await ids("provider=anonymous&sort=created&dir=desc") == ["u11", "u08", "u05"])
            #expect(try await ids("state=disabled") == ["u03", "u06"])
            #expect(try await ids("state=disabled&verified=yes") == ["u06"])
            #expect(try await ids("state=enabled&verified=no&provider=phone&sort=created&dir=desc") == ["u10", "u07", "u04", "u01"])
            try await node.store.write { tx in
                try await tx.insertMFAEnrollment(
                    MFAEnrollmentRecord(
                        enrollmentID: "m", localID: "u04", factor: .phone, displayName: nil, phoneNumber: "+16505559999", enrolledAt: 1))
            }
            #expect(try await ids("mfa=yes") == ["u04"])
            #expect(try await ids("mfa=no").count == 11)
            // Created a minute apart from 04:38 on 29 Nov 2026: none the day before, all that day.
            #expect(try await ids("from=2026-11-29&to=2026-11-29&sort=email").count == 12)
            #expect(try await ids("to=2026-11-28").isEmpty)
            #expect(try await ids("from=2026-11-30").isEmpty)
            let page = try await api.console(.get, "/console/users?provider=phone&size=25&sort=created&dir=desc", cookie: op.cookie)
            #expect(page.text.contains(#"<option value="phone" selected>phone</option>"#) && page.text.contains("Accounts matching the filters"))
            let paged = try await api.console(.get, "/console/users?state=enabled&sort=created&size=25", cookie: op.cookie)
            #expect(Self.rowIDs(paged.text).count == 10 && Self.next(paged.text) == nil)
        }
    }

    @Test("the search honours the list's order, filters and page size, and its links keep the search, the order and the filters")
    func searchInOrder() async throws {
        var users = Self.accounts(30)
        for n in users.indices { users[n].displayName = n % 2 == 0 ? "Ada \(n)" : "Bob \(n)" }
        users[4].disabled = true
        let all = users
        try await withUsers(all) { api, op, _ in
            let ada = all.filter { $0.displayName?.hasPrefix("Ada") == true }
            let newest = try await api.console(.get, "/console/users?q=ada&sort=created&dir=desc&size=25", cookie: op.cookie)
            #expect(newest.status == .ok && newest.text.contains("Accounts matching the search"))
            #expect(Self.rowIDs(newest.text) == ada.reversed().map(\.localID), "newest first, not by user ID")
            #expect(newest.text.contains(#"<input type="hidden" name="dir" value="desc">"#), "the search form keeps the order")
            #expect(newest.text.contains(#"<input type="hidden" name="q" value="ada">"#), "the filter form keeps the search")
            #expect(newest.text.contains(#"href="/console/users?q=ada&amp;size=25&amp;sort=created">Created</a>"#), "sort links keep it")

            let enabled = try await api.console(.get, "/console/users?q=ada&state=enabled&sort=created&dir=desc", cookie: op.cookie)
            #expect(Self.rowIDs(enabled.text) == ada.reversed().map(\.localID).filter { $0 != "u04" })
            #expect(enabled.text.contains("Accounts matching the search and the filters"))
            let byEmail = try await api.console(.get, "/console/users?q=ada&sort=email", cookie: op.cookie)
            let emails = ada.filter { $0.email != nil }.sorted { $0.email! < $1.email! }.map(\.localID)
            #expect(Self.rowIDs(byEmail.text) == emails + ada.filter { $0.email == nil }.map(\.localID), "no email last")

            // Pages of 25 over the 30 matches of `u`, newest first: the next link carries the search and the order.
            let first = try await api.console(.get, "/console/users?q=u&sort=created&dir=desc&size=25", cookie: op.cookie)
            #expect(Self.rowIDs(first.text) == all.reversed().prefix(25).map(\.localID))
            let next = try #require(Self.next(first.text))
            #expect(next.contains("q=u") && next.contains("sort=created") && next.contains("cursor="))
            let rest = try await api.console(.get, next, cookie: op.cookie)
            #expect(Self.rowIDs(rest.text) == all.reversed().suffix(5).map(\.localID))
            #expect(Self.next(rest.text) == nil)
            let exact = try await api.console(.get, "/console/users?q=user3%40example.com&state=disabled", cookie: op.cookie)
            #expect(Self.rowIDs(exact.text).isEmpty, "an exact match that the filters refuse")
        }
    }

    @Test("bulk disable: one confirmation listing the accounts, then each through the single action's flow, audited per account")
    func bulk() async throws {
        try await withUsers(Self.accounts(4)) { api, op, node in
            let list = try await api.console(.get, "/console/users", cookie: op.cookie)
            #expect(list.text.contains(#"<input type="checkbox" name="u:u01" value="on" aria-label="Select u01">"#))
            let form = ["csrf": op.csrf, "action": "disable", "u:u01": "on", "u:u02": "on"]
            let confirm = try await api.console(.post, "/console/users/bulk", form: form, cookie: op.cookie)
            #expect(confirm.status == .ok && confirm.text.contains("Disable these 2 accounts?"))
            #expect(confirm.text.contains(#"name="u:u01" value="on""#) && confirm.text.contains(#"name="u:u02" value="on""#))
            #expect(
                try await node.store.read { try await $0.user(tenant: .default, localID: "u01") }?.disabled == false,
                "nothing before the confirmation")
            var confirmed = form
            confirmed["confirmed"] = "yes"
            let done = try await api.console(.post, "/console/users/bulk", form: confirmed, cookie: op.cookie)
            #expect(done.status == .ok && done.text.contains("2 done, 0 refused"))
            for id in ["u01", "u02"] {
                #expect(try await node.store.read { try await $0.user(tenant: .default, localID: id) }?.disabled == true)
                let events = try await api.auditEvents("kind=ADMIN_ACTION&uid=\(id)")
                #expect(events.count == 1 && events.first?["actor"]?.stringValue == "ops@example.com")
                #expect(events.first?["detail"]?["action"]?.stringValue == "disable")
            }
            #expect(try await node.store.read { try await $0.user(tenant: .default, localID: "u03") }?.disabled == false)
            let stale = try await api.console(
                .post, "/console/users/bulk", form: ["action": "delete", "u:u03": "on", "confirmed": "yes"], cookie: op.cookie)
            #expect(stale.status == .forbidden, "no CSRF token")
            let deleted = try await api.console(
                .post, "/console/users/bulk", form: ["csrf": op.csrf, "action": "delete", "u:u03": "on", "u:gone": "on", "confirmed": "yes"],
                cookie: op.cookie)
            #expect(deleted.text.contains("1 done, 1 refused"))
            #expect(try await node.store.read { try await $0.user(tenant: .default, localID: "u03") } == nil)
            let unknown = try await api.console(
                .post, "/console/users/bulk", form: ["csrf": op.csrf, "action": "claims", "u:u00": "on"], cookie: op.cookie)
            #expect(unknown.status == .badRequest)
        }
    }

    @Test("a read-only operator sees no checkboxes and its bulk POST is refused")
    func bulkReadOnly() async throws {
        try await withUsers(role: .read, Self.accounts(2)) { api, op, node in
            let list = try await api.console(.get, "/console/users", cookie: op.cookie)
            #expect(list.status == .ok && !list.text.contains(#"type="checkbox""#) && !list.text.contains("/console/users/bulk"))
            let refused = try await api.console(
                .post, "/console/users/bulk", form: ["csrf": op.csrf, "action": "disable", "u:u01": "on", "confirmed": "yes"], cookie: op.cookie)
            #expect(refused.status == .forbidden)
            #expect(try await node.store.read { try await $0.user(tenant: .default, localID: "u01") }?.disabled == false)
        }
    }

    @Test("add a user: an email with a password or a phone number, through the operator's create, audited; its errors shown")
    func addUser() async throws {
        try await withUsers([]) { api, op, node in
            let form = try await api.console(.get, "/console/new-user", cookie: op.cookie)
            #expect(form.status == .ok && form.text.contains(#"action="/console/new-user""#))
            let made = try await api.console(
                .post, "/console/new-user",
                form: ["csrf": op.csrf, "email": "New@Example.com", "password": "a long password", "name": "New One", "verified": "yes"],
                cookie: op.cookie)
            #expect(made.status == .seeOther)
            let location = try #require(made.headers[.location])
            #expect(location.hasPrefix("/console/users/") && location.hasSuffix("?created=1"))
            let id = String(location.dropFirst("/console/users/".count).prefix { $0 != "?" })
            let user = try #require(try await node.store.read { try await $0.user(tenant: .default, localID: id) })
            #expect(user.email == "new@example.com" && user.passwordHash != nil && user.emailVerified && user.displayName == "New One")
            #expect(try await api.signInWithPassword("new@example.com", "a long password").status == .ok)
            let page = try await api.console(.get, location, cookie: op.cookie)
            #expect(page.text.contains("Account created."))
            let events = try await api.auditEvents("kind=ADMIN_ACTION&uid=\(id)")
            #expect(events.first?["detail"]?["action"]?.stringValue == "create" && events.first?["actor"]?.stringValue == "ops@example.com")

            let phone = try await api.console(.post, "/console/new-user", form: ["csrf": op.csrf, "phone": "+1 650 555 0177"], cookie: op.cookie)
            #expect(phone.status == .seeOther)
            #expect(try await node.store.read { try await $0.user(tenant: .default, phoneNumber: "+16505550177") } != nil)

            let taken = try await api.console(
                .post, "/console/new-user", form: ["csrf": op.csrf, "email": "new@example.com", "password": "another password"], cookie: op.cookie)
            #expect(taken.status == .badRequest && taken.text.contains("EMAIL_EXISTS") && taken.text.contains(#"value="new@example.com""#))
            let empty = try await api.console(.post, "/console/new-user", form: ["csrf": op.csrf], cookie: op.cookie)
            #expect(empty.status == .badRequest && empty.text.contains("Give an email and a password, or a phone number."))
            let noPassword = try await api.console(.post, "/console/new-user", form: ["csrf": op.csrf, "email": "x@example.com"], cookie: op.cookie)
            #expect(noPassword.status == .badRequest && noPassword.text.contains("MISSING_PASSWORD"))
            let stale = try await api.console(.post, "/console/new-user", form: ["phone": "+16505550178"], cookie: op.cookie)
            #expect(stale.status == .forbidden)
            #expect(try await node.store.read { try await $0.user(tenant: .default, phoneNumber: "+16505550178") } == nil)
        }
    }

    @Test("a read-only operator is offered no Add a user, and its create is refused")
    func addUserReadOnly() async throws {
        try await withUsers(role: .read, []) { api, op, node in
            #expect(!(try await api.console(.get, "/console/users", cookie: op.cookie)).text.contains("/console/new-user"))
            #expect(try await api.console(.get, "/console/new-user", cookie: op.cookie).status == .forbidden)
            let refused = try await api.console(.post, "/console/new-user", form: ["csrf": op.csrf, "phone": "+16505550179"], cookie: op.cookie)
            #expect(refused.status == .forbidden)
            #expect(try await node.store.read { try await $0.user(tenant: .default, phoneNumber: "+16505550179") } == nil)
        }
    }
}
