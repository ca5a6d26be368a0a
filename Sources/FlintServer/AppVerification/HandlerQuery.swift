/// The parameters of a request to `/__/auth/handler` (its query, or the form its page posts back), each checked for
/// length and characters before use: app verification's challenge (``WebChallengeParameters``) and a provider
/// sign-in's start (``RedirectStartRequest``) share the handler and most of its parameters.
struct HandlerQuery: Sendable {
    /// Why the parameters cannot be used (shown on the handler's error page).
    struct Invalid: Error, Sendable {
        let message: String
    }

    let fields: [String: String]

    init(_ fields: [String: String]) { self.fields = fields }

    /// `name`'s value; `nil` when absent or empty.
    /// - Throws: ``Invalid`` naming the parameter when its value is longer than `max` bytes or has a character outside
    ///   ASCII or refused by `allowed`.
    func field(_ name: String, max: Int, allowed: (Unicode.Scalar) -> Bool) throws(Invalid) -> String? {
        guard let value = fields[name], !value.isEmpty else { return nil }
        guard value.utf8.count <= max, value.unicodeScalars.allSatisfy({ $0.isASCII && allowed($0) }) else {
            throw Invalid(message: "The \(name) parameter is not valid.")
        }
        return value
    }

    /// The API key (`apiKey`): letters, digits, `-`, `_`.
    func apiKey() throws(Invalid) -> String? { try field("apiKey", max: 200, allowed: Self.letters(or: "-_")) }
    /// The iOS bundle ID (`ibi`).
    func bundleID() throws(Invalid) -> String? { try field("ibi", max: 255, allowed: Self.letters(or: ".-")) }
    /// The app's OAuth client ID (`clientId`), whose reverse is its URL scheme.
    func clientID() throws(Invalid) -> String? { try field("clientId", max: 255, allowed: Self.letters(or: ".-_")) }
    /// The app's Google app ID (`appId`), the other source of its URL scheme.
    func appID() throws(Invalid) -> String? { try field("appId", max: 255, allowed: Self.letters(or: ":-_")) }
    /// The page's language (`hl`).
    func language() throws(Invalid) -> String? { try field("hl", max: 35, allowed: Self.letters(or: "-_")) }

    /// ASCII letters and digits, and the characters of `extra`.
    static func letters(or extra: String) -> (Unicode.Scalar) -> Bool {
        { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || extra.unicodeScalars.contains($0) }
    }

    /// Printable ASCII: space to `~`.
    static func printable(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x20 && scalar.value < 0x7f }
}
