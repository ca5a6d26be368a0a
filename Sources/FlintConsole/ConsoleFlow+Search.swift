import FlintCore
import FlintServer
import FlintStore

/// The users search in the list's order and with its filters: the search finds its matches on the store's indexes
/// (an exact email or phone number, or the local-ID and display-name prefixes' ranges), at most
/// ``searchMatchLimit`` of them by local ID, and the list's filters, order and keyset pages apply to those matches.
extension ConsoleFlow {
    /// The most matches a search orders and filters; past it the page says to narrow the search.
    static let searchMatchLimit = 1_000

    /// One page of the search `text` in `list`'s order, filtered and paged as the list is (`list.cursor` is where the
    /// previous page ended). `text` is an email (exact, as `accounts:query` matches it), a phone number in any
    /// international format (`+44 7700 900123`, `0044…`) or, with the project's default phone region, in that region's
    /// national format (`(650) 555-3434`), or else a local-ID prefix or the start of the display name
    /// (case-insensitive).
    func searchUsers(_ text: String, list: ConsoleUserList) async throws -> (page: ConsoleUserPage, identities: [String: [FederatedIdentityRecord]]) {
        let query = text.trimmingSpaces
        let limit = Self.searchMatchLimit
        let matches: [UserRecord]
        if let filter = Self.exactFilter(query, region: node.config.current.defaultPhoneRegion) {
            matches = try await node.store.read { try await $0.users(tenant: .scoped, matching: UserQuery(filter: filter, limit: 1)) }
        } else {
            let term = query.isEmpty ? nil : query
            matches = try await node.store.read {
                try await $0.consoleUsers(tenant: .scoped, idPrefix: term, namePrefix: term, after: nil, limit: limit + 1)
            }
        }
        let capped = matches.count > limit
        let candidates = Array(matches.prefix(limit))
        let identities = try await identities(of: candidates)
        var factors: [String: [MFAEnrollmentRecord]] = [:]
        if list.hasMFA != nil, !candidates.isEmpty {
            let ids = candidates.map(\.localID)
            factors = try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localIDs: ids) }
        }
        let listing = list.listing
        let sorted = candidates.filter { user in
            listing.admits(user, identities: identities[user.localID] ?? [], hasFactors: !(factors[user.localID] ?? []).isEmpty)
        }.sorted { listing.precedes($0.sortKey(listing.order), $1.sortKey(listing.order)) }
        let rest = list.cursor.map { cursor in sorted.filter { listing.precedes(cursor, $0.sortKey(listing.order)) } } ?? sorted
        let shown = Array(rest.prefix(list.size))
        let next = rest.count > list.size ? shown.last.map { $0.sortKey(listing.order) } : nil
        let page = ConsoleUserPage(users: shown, next: next, scanStopped: capped)
        return (page, identities.filter { id, _ in shown.contains { $0.localID == id } })
    }
}

extension UserRecord {
    /// Where the account stands in `order`: the value the list sorts by (none for the local-ID order, or when the
    /// account has no email or never signed in) and its local ID.
    fileprivate func sortKey(_ order: ConsoleUserListing.Order) -> ConsoleUserCursor {
        let value: String? =
            switch order {
            case .userID: nil
            case .created: String(createdAt.millisecondsSince1970)
            case .lastSignIn: lastLoginAt.map { String($0.millisecondsSince1970) }
            case .email: email
            }
        return ConsoleUserCursor(value: value, localID: localID)
    }
}

extension ConsoleUserListing {
    /// Whether `a` comes before `b` in this listing, as the store orders the list: accounts without a value last either
    /// way, then the value (times as numbers, emails by their bytes) and the local ID (by its bytes), both turned
    /// round when descending.
    fileprivate func precedes(_ a: ConsoleUserCursor, _ b: ConsoleUserCursor) -> Bool {
        if order.isNullable, (a.value == nil) != (b.value == nil) { return b.value == nil }
        func less(_ x: ConsoleUserCursor, _ y: ConsoleUserCursor) -> Bool {
            if let u = x.value, let v = y.value, u != v {
                if order == .email { return u.utf8.lexicographicallyPrecedes(v.utf8) }
                return (Int64(u) ?? 0) < (Int64(v) ?? 0)
            }
            return x.localID.utf8.lexicographicallyPrecedes(y.localID.utf8)
        }
        return descending ? less(b, a) : less(a, b)
    }

    /// Whether `user`, with its federated `identities` and whether it has second factors, passes this listing's
    /// filters (the store's row filters, on one account).
    fileprivate func admits(_ user: UserRecord, identities: [FederatedIdentityRecord], hasFactors: Bool) -> Bool {
        switch provider {
        case nil: break
        case "password": guard user.email != nil, user.passwordHash != nil || user.emailLinkSignIn else { return false }
        case "phone": guard user.phoneNumber != nil else { return false }
        case "anonymous": guard user.email == nil, user.phoneNumber == nil, identities.isEmpty else { return false }
        case let provider?: guard identities.contains(where: { $0.providerID == provider }) else { return false }
        }
        if let disabled, user.disabled != disabled { return false }
        if let emailVerified, user.emailVerified != emailVerified { return false }
        if let hasMFA, hasFactors != hasMFA { return false }
        if let createdFrom, user.createdAt < createdFrom { return false }
        if let createdBefore, !(user.createdAt < createdBefore) { return false }
        return true
    }
}
