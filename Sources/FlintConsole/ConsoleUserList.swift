import FlintCore
import FlintServer
import FlintStore

/// What the users list shows, as its query string says: the order and direction, the page size, the filters and
/// where the page starts (an opaque cursor). Unknown or malformed values fall back to the defaults.
struct ConsoleUserList: Sendable, Equatable {
    /// The page sizes offered.
    static let pageSizes = [25, 50, 100, 200]
    /// The providers the filter offers: the built-in ones, then the federated providers Flint serves.
    static let providers = [
        "password", "phone", "anonymous", "google.com", "apple.com", "github.com", "facebook.com", "twitter.com", "microsoft.com", "yahoo.com",
        "gc.apple.com",
    ]

    /// The search (`q`), trimmed; `nil` when empty.
    var search: String?
    var order: ConsoleUserListing.Order = .userID
    var descending = false
    var size = 50
    var provider: String?
    var disabled: Bool?
    var emailVerified: Bool?
    var hasMFA: Bool?
    /// `YYYY-MM-DD`, UTC, inclusive.
    var from: String?
    /// `YYYY-MM-DD`, UTC, inclusive.
    var to: String?
    var cursor: ConsoleUserCursor?

    /// The list a query string's fields describe.
    init(_ fields: [String: String]) {
        search = fields["q"].map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 }
        order = fields["sort"].flatMap(ConsoleUserListing.Order.init(rawValue:)) ?? .userID
        descending = fields["dir"] == "desc"
        size = fields["size"].flatMap(Int.init).flatMap { Self.pageSizes.contains($0) ? $0 : nil } ?? 50
        provider = fields["provider"].flatMap { Self.isProviderID($0) ? $0 : nil }
        disabled = Self.flag(fields["state"], yes: "disabled", no: "enabled")
        emailVerified = Self.flag(fields["verified"], yes: "yes", no: "no")
        hasMFA = Self.flag(fields["mfa"], yes: "yes", no: "no")
        from = fields["from"].flatMap { Self.day($0) == nil ? nil : $0 }
        to = fields["to"].flatMap { Self.day($0) == nil ? nil : $0 }
        cursor = fields["cursor"].flatMap(Self.cursor(decoding:))
    }

    /// The store's listing of this page.
    var listing: ConsoleUserListing {
        var listing = ConsoleUserListing(order: order, descending: descending, after: cursor, limit: size)
        listing.provider = provider
        listing.disabled = disabled
        listing.emailVerified = emailVerified
        listing.hasMFA = hasMFA
        listing.createdFrom = from.flatMap(Self.day)
        listing.createdBefore = to.flatMap(Self.day).map { $0 + .seconds(86_400) }
        return listing
    }

    /// Whether any filter is set.
    var isFiltered: Bool { provider != nil || disabled != nil || emailVerified != nil || hasMFA != nil || from != nil || to != nil }

    /// The query fields of this list (without the cursor unless `cursor` is given), for links that keep it.
    func fields(cursor: ConsoleUserCursor? = nil) -> [String: String] {
        var out: [String: String] = [:]
        out["q"] = search
        if order != .userID { out["sort"] = order.rawValue }
        if descending { out["dir"] = "desc" }
        if size != 50 { out["size"] = String(size) }
        out["provider"] = provider
        out["state"] = disabled.map { $0 ? "disabled" : "enabled" }
        out["verified"] = emailVerified.map { $0 ? "yes" : "no" }
        out["mfa"] = hasMFA.map { $0 ? "yes" : "no" }
        out["from"] = from
        out["to"] = to
        out["cursor"] = cursor.map(Self.encode)
        return out
    }

    /// `yes` / `no` (or the given words) as a filter; anything else is none.
    private static func flag(_ text: String?, yes: String, no: String) -> Bool? {
        text == yes ? true : text == no ? false : nil
    }

    /// A provider ID as the filter takes it: letters, digits, dots, hyphens and underscores (`oidc.my-idp`).
    private static func isProviderID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// The start (00:00 UTC) of a `YYYY-MM-DD` day.
    static func day(_ text: String) -> Instant? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        // Days from 1970-01-01 of a proleptic Gregorian date (the civil-days algorithm).
        let year = m <= 2 ? y - 1 : y
        let era = (year >= 0 ? year : year - 399) / 400
        let yoe = year - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Instant(secondsSince1970: (era * 146_097 + doe - 719_468) * 86_400)
    }

    /// A cursor as the page's links carry it: base64url of `+value` (or `-` without one), a newline and the local ID.
    static func encode(_ cursor: ConsoleUserCursor) -> String {
        Base64URL.encode(Array(((cursor.value.map { "+" + $0 } ?? "-") + "\n" + cursor.localID).utf8))
    }

    /// The cursor a link carries; `nil` when it is not one.
    static func cursor(decoding text: String) -> ConsoleUserCursor? {
        guard let bytes = Base64URL.decode(text), let decoded = String(validating: bytes, as: UTF8.self),
            let newline = decoded.firstIndex(of: "\n")
        else { return nil }
        let head = decoded[..<newline]
        let id = String(decoded[decoded.index(after: newline)...])
        switch head.first {
        case "+": return ConsoleUserCursor(value: String(head.dropFirst()), localID: id)
        case "-" where head.count == 1: return ConsoleUserCursor(value: nil, localID: id)
        default: return nil
        }
    }
}
