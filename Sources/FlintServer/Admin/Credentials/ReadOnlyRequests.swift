import HTTPTypes

/// What a read-scoped admin credential may call: `GET`s, and the `POST`s that only read (account lookups and
/// queries, `createAuthUri`). Anything else is refused with Firebase's 403 `INSUFFICIENT_PERMISSION`.
enum ReadOnlyRequests {
    /// The last path segments (after the last `/`) of the reading `POST`s, or their ends after a `:`.
    private static let readingPOSTs: [String] = [
        "accounts:lookup", "getAccountInfo", "accounts:query", ":queryAccounts", "accounts:batchGet", "downloadAccount", "accounts:createAuthUri",
        "createAuthUri",
    ]

    /// Whether `method` on `path` only reads.
    static func allows(_ method: HTTPRequest.Method, path: String) -> Bool {
        if method == .get || method == .head { return true }
        guard method == .post else { return false }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return readingPOSTs.contains { last == $0 || ($0.hasPrefix(":") && last.hasSuffix($0)) }
    }
}
