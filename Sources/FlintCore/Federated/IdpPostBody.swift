/// `signInWithIdp`'s `postBody`: the provider's credential, form-encoded as the SDKs send it
/// (`providerId=apple.com&id_token=…&nonce=…`; the iOS SDK adds `user={"name":{…}}` for Sign in with Apple).
package struct IdpPostBody: Sendable, Equatable {
    /// `providerId`.
    package var providerID: String?
    /// `id_token`: the provider's ID token.
    package var idToken: String?
    /// `access_token`.
    package var accessToken: String?
    /// `code`: an authorization code.
    package var code: String?
    /// `nonce`: the raw nonce the app generated.
    package var nonce: String?
    /// `user`: the name Sign in with Apple gave the app (JSON).
    package var user: String?
    /// `code_verifier`: a PKCE verifier for `code`.
    package var codeVerifier: String?
    /// `oauth_token_secret`: OAuth 1.0a's token secret, beside `access_token` (Twitter).
    package var oauthTokenSecret: String?

    /// Parses a form-encoded body; later repeats of a field win, unknown fields are ignored.
    package init(parsing text: String) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            switch name {
            case "providerId": providerID = value
            case "id_token": idToken = value
            case "access_token": accessToken = value
            case "code": code = value
            case "nonce": nonce = value
            case "user": user = value
            case "code_verifier": codeVerifier = value
            case "oauth_token_secret": oauthTokenSecret = value
            default: continue
            }
        }
    }

    /// Percent-decoding with `+` as a space; `nil` for a malformed escape or invalid UTF-8.
    package static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
