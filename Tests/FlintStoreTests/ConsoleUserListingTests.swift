import FlintCore
import FlintStore
import FlintTesting
import Foundation
import Testing

@Suite("Console storage: the users list's orders, filters and bounded pages")
struct ConsoleUserListingTests {
    /// Twelve accounts: every third without a sign-in, every fourth without an email, a few with a password, a phone,
    /// a Google identity, a second factor, disabled or verified.
    static func accounts() -> [UserRecord] {
        (0..<12).map { n in
            var user = UserRecord(
                localID: "u\(String(format: "%02d", (n * 7) % 12))", createdAt: Instant(millisecondsSince1970: Int64(1000 + n * 10)), validSince: 1)
            if n % 3 != 0 { user.lastLoginAt = Instant(millisecondsSince1970: Int64(5000 - n * 100)) }
            if n % 4 != 0 { user.email = "\(["b", "A", "z", "é", "a"][n % 5])\(n)@example.com" }
            if n % 4 == 1 { user.passwordHash = "h" }
            if n % 4 == 0 && n % 8 != 0 { user.phoneNumber = "+1650555000\(n)" }
            user.disabled = n % 5 == 2
            user.emailVerified = n % 2 == 1
            return user
        }
    }

    static func store(_ engine: Engine) async throws -> any AuthStore {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for user in accounts() { try await tx.insertUser(user) }
            try await tx.linkFederatedIdentity(FederatedIdentityRecord(localID: "u07", providerID: "google.com", rawID: "g1"))
            try await tx.insertMFAEnrollment(
                MFAEnrollmentRecord(enrollmentID: "m1", localID: "u02", factor: .phone, displayName: nil, phoneNumber: "+16505550100", enrolledAt: 1))
        }
        return store
    }

    /// Every page of `listing`, followed by its cursors: the IDs in order and how many pages stopped at the scan limit.
    static func walk(_ store: any AuthStore, _ listing: ConsoleUserListing) async throws -> (ids: [String], stopped: Int) {
        var listing = listing
        var ids: [String] = []
        var stopped = 0
        for _ in 0..<100 {
            let current = listing
            let page = try await store.read { try await $0.consoleUsers(tenant: .default, current) }
            #expect(page.users.count <= listing.limit)
            ids += page.users.map(\.localID)
            if page.scanStopped { stopped += 1 }
            guard let next = page.next else { return (ids, stopped) }
            listing.after = next
        }
        Issue.record("the walk did not end")
        return (ids, stopped)
    }

    /// The order a listing must give: by the value (code point order for text), accounts without one last in local-ID
    /// order, ties by local ID.
    static func expected(_ order: ConsoleUserListing.Order, descending: Bool, _ keep: (UserRecord) -> Bool = { _ in true }) -> [String] {
        let users = accounts().filter(keep)
        func value(_ user: UserRecord) -> String? {
            switch order {
            case .userID: nil
            case .created: String(format: "%020lld", user.createdAt.millisecondsSince1970)
            case .lastSignIn: user.lastLoginAt.map { String(format: "%020lld", $0.millisecondsSince1970) }
            case .email: user.email
            }
        }
        func before(_ a: UserRecord, _ b: UserRecord) -> Bool {
            switch (value(a), value(b)) {
            case (nil, nil): descending ? a.localID > b.localID : a.localID < b.localID
            case (nil, _): false
            case (_, nil): true
            case (let x?, let y?):
                x == y
                    ? (descending ? a.localID > b.localID : a.localID < b.localID)
                    : (descending
                        ? Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value)) == false
                        : Array(x.unicodeScalars.map(\.value)).lexicographicallyPrecedes(y.unicodeScalars.map(\.value)))
            }
        }
        return users.sorted(by: before).map(\.localID)
    }

    @Test("each order walks every account once, both ways, accounts without a value last", arguments: Engine.all)
    func orders(engine: Engine) async throws {
        let store = try await Self.store(engine)
        for order in ConsoleUserListing.Order.allCases {
            for descending in [false, true] {
                for limit in [1, 5, 50] {
                    let walked = try await Self.walk(store, ConsoleUserListing(order: order, descending: descending, limit: limit))
                    #expect(walked.ids == Self.expected(order, descending: descending), "\(order) \(descending) \(limit)")
                    #expect(walked.stopped == 0)
                }
            }
        }
        try await store.close()
    }

    @Test("filters combine with every order and with each other", arguments: Engine.all)
    func filters(engine: Engine) async throws {
        let store = try await Self.store(engine)
        let cases: [(String, (inout ConsoleUserListing) -> Void, (UserRecord) -> Bool)] = [
            ("password", { $0.provider = "password" }, { $0.email != nil && $0.passwordHash != nil }),
            ("phone", { $0.provider = "phone" }, { $0.phoneNumber != nil }),
            ("anonymous", { $0.provider = "anonymous" }, { $0.email == nil && $0.phoneNumber == nil && $0.localID != "u07" }),
            ("google", { $0.provider = "google.com" }, { $0.localID == "u07" }),
            ("disabled", { $0.disabled = true }, { $0.disabled }),
            (
                "enabled and verified",
                {
                    $0.disabled = false; $0.emailVerified = true
                }, { !$0.disabled && $0.emailVerified }
            ),
            ("MFA", { $0.hasMFA = true }, { $0.localID == "u02" }),
            ("no MFA", { $0.hasMFA = false }, { $0.localID != "u02" }),
            (
                "created between",
                {
                    $0.createdFrom = Instant(millisecondsSince1970: 1030); $0.createdBefore = Instant(millisecondsSince1970: 1080)
                },
                { (1030..<1080).contains($0.createdAt.millisecondsSince1970) }
            ),
        ]
        for (name, apply, keep) in cases {
            for order in ConsoleUserListing.Order.allCases {
                for descending in [false, true] {
                    var listing = ConsoleUserListing(order: order, descending: descending, limit: 2)
                    apply(&listing)
                    let walked = try await Self.walk(store, listing)
                    #expect(walked.ids == Self.expected(order, descending: descending, keep), "\(name) \(order) \(descending)")
                }
            }
        }
        try await store.close()
    }

    @Test("a rare filter reads at most the scan limit per page, says more may match, and finds every match", arguments: Engine.all)
    func boundedScan(engine: Engine) async throws {
        let store = try await Self.store(engine)
        for order in ConsoleUserListing.Order.allCases {
            var listing = ConsoleUserListing(order: order, limit: 2, scanLimit: 3)
            listing.provider = "google.com"
            let first = try await store.read { [listing] in try await $0.consoleUsers(tenant: .default, listing) }
            let walked = try await Self.walk(store, listing)
            #expect(walked.ids == ["u07"], "\(order)")
            #expect(walked.stopped >= 3, "twelve accounts, three read a page: \(order)")
            if first.users.isEmpty { #expect(first.scanStopped && first.next != nil, "\(order)") }
        }
        try await store.close()
    }
}
