import FlintCore

extension IdpPostBody {
    /// Whether `text` is an absolute URI: a scheme (a letter, then letters, digits, `+`, `-`, `.`), a colon and
    /// something after it — `http://localhost`, `https://app.example.com/cb`, `com.example.app:/oauth2redirect`.
    /// Firebase answers `INVALID_REQUEST_URI` for anything else.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), text.index(after: colon) != text.endIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
            && !text.contains(where: { $0 == " " || $0.isNewline })
    }

    /// The body with the provider's parameters that `requestUri` carries where the body has none: an `id_token`,
    /// `access_token` or `code` in its fragment (an implicit-flow callback, `…#id_token=…`) or query (`…?id_token=…`), and
    /// the `providerId`, `nonce` and `user` beside them. A value in the fragment wins over the query, as Firebase reads
    /// them. The query's `code` is left to the code flows, which read it from `requestUri` themselves.
    func filled(fromRequestURI uri: String) -> IdpPostBody {
        let beforeFragment = uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let query = beforeFragment[0].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first ?? ""
        var carried = IdpPostBody(parsing: String(query))
        carried.code = nil
        if beforeFragment.count > 1 {
            let fragment = IdpPostBody(parsing: String(beforeFragment[1]))
            carried.providerID = fragment.providerID ?? carried.providerID
            carried.idToken = fragment.idToken ?? carried.idToken
            carried.accessToken = fragment.accessToken ?? carried.accessToken
            carried.code = fragment.code
            carried.nonce = fragment.nonce ?? carried.nonce
            carried.user = fragment.user ?? carried.user
        }
        var body = self
        body.providerID = body.providerID ?? carried.providerID
        body.idToken = Self.given(body.idToken) ?? carried.idToken
        body.accessToken = Self.given(body.accessToken) ?? carried.accessToken
        body.code = Self.given(body.code) ?? carried.code
        body.nonce = body.nonce ?? carried.nonce
        body.user = body.user ?? carried.user
        return body
    }

    private static func given(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}
