import Crypto
import FlintCore

/// OAuth 1.0a request signing (RFC 5849, `HMAC-SHA1`), as Twitter's API takes it: the `Authorization: OAuth …`
/// header of a request, signed over its method, base URL and every parameter (the query's, the form's and the
/// `oauth_*` ones) with the consumer secret and the token secret.
struct OAuth1 {
    /// The client's key and secret (a provider's `clientId` and `clientSecret`).
    var consumerKey: String
    var consumerSecret: String
    /// The token the request is made with and its secret (none for a request token's request).
    var token: String? = nil
    var tokenSecret = ""

    /// The `Authorization` header of a request to `url` (with its query) carrying `form` in its body and the extra
    /// protocol parameters `oauth` (`oauth_callback`, `oauth_verifier`), with `nonce` and `timestamp` (seconds).
    func authorization(method: String, url: String, form: [(String, String)] = [], oauth: [(String, String)] = [], nonce: String, timestamp: Int64)
        -> String
    {
        var protocolParameters = [
            ("oauth_consumer_key", consumerKey), ("oauth_nonce", nonce), ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)), ("oauth_version", "1.0"),
        ]
        if let token { protocolParameters.append(("oauth_token", token)) }
        protocolParameters += oauth
        let signature = sign(Self.baseString(method: method, url: url, parameters: protocolParameters + form))
        protocolParameters.append(("oauth_signature", signature))
        return "OAuth "
            + protocolParameters.sorted { $0.0 < $1.0 }.map { "\(URLQuery.escape($0.0))=\"\(URLQuery.escape($0.1))\"" }.joined(separator: ", ")
    }

    /// What a provider's refusal says: its first error message (Twitter's `{"errors":[{"code":…,"message":…}]}`),
    /// else its HTTP status.
    static func reason(_ answer: ProviderAnswer) -> String {
        if let message = answer.json?["errors"]?.arrayValue?.first?["message"]?.stringValue { return message }
        return "HTTP \(answer.status)"
    }

    /// The base64 HMAC-SHA1 of `base` keyed with the escaped secrets joined by `&`.
    func sign(_ base: String) -> String {
        let key = URLQuery.escape(consumerSecret) + "&" + URLQuery.escape(tokenSecret)
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Array(base.utf8), using: SymmetricKey(data: Array(key.utf8)))
        return ProviderKeys.base64(Array(mac))
    }

    /// The signature base string (RFC 5849 §3.4.1): the method, the base URL (lower-case scheme and host, the port
    /// only when not the scheme's default, no query or fragment) and the sorted, escaped parameters — `parameters`
    /// and those of `url`'s query — each part escaped once more and joined by `&`.
    static func baseString(method: String, url: String, parameters: [(String, String)]) -> String {
        let withoutFragment = url.prefix { $0 != "#" }
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var all = parameters
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                all.append((IdpPostBody.decode(field[0]) ?? "", field.count > 1 ? IdpPostBody.decode(field[1]) ?? "" : ""))
            }
        }
        let normalized = all.map { (URLQuery.escape($0.0), URLQuery.escape($0.1)) }.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
        let parameterString = normalized.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return [method.uppercased(), baseURL(String(parts[0])), parameterString].map(URLQuery.escape).joined(separator: "&")
    }

    /// `scheme://host[:port]/path` with the scheme and host lower-cased and a default port (80, 443) left out.
    static func baseURL(_ url: String) -> String {
        // `scheme:`, the empty part between the slashes, the authority, then the path.
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return url }
        let scheme = parts[0].dropLast().lowercased()
        var host = parts[2].lowercased()
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        return scheme + "://" + host + "/" + (parts.count > 3 ? parts[3] : "")
    }
}
