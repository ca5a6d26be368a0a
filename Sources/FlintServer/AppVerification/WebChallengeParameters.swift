import FlintCore

/// The query of `/__/auth/handler?authType=verifyApp…` (FirebaseAuth's reCAPTCHA URL), validated: `apiKey`,
/// `authType`, `ibi` (bundle ID), `eventId`, `clientId` or `appId`, optional `hl` and `v`. The same fields come
/// back in the form the page posts.
struct WebChallengeParameters: Sendable {
    var apiKey: String
    var bundleID: String
    var eventID: String
    var clientID: String?
    var appID: String?
    var language: String
    var version: String?

    /// Why the parameters cannot be used (shown on the error page).
    struct Invalid: Error, Sendable {
        let message: String
    }

    /// Validates `fields` (query or form).
    /// - Throws: ``Invalid`` naming the first bad parameter.
    init(_ fields: [String: String], acceptsAPIKey: (String) -> Bool) throws(Invalid) {
        func field(_ name: String, max: Int, allowed: (Unicode.Scalar) -> Bool) throws(Invalid) -> String? {
            guard let value = fields[name], !value.isEmpty else { return nil }
            guard value.utf8.count <= max, value.unicodeScalars.allSatisfy({ $0.isASCII && allowed($0) }) else {
                throw Invalid(message: "The \(name) parameter is not valid.")
            }
            return value
        }
        let alnum: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        guard fields["authType"] == "verifyApp" else { throw Invalid(message: "authType must be verifyApp.") }
        guard let apiKey = try field("apiKey", max: 200, allowed: { alnum($0) || $0 == "-" || $0 == "_" }) else {
            throw Invalid(message: "The apiKey parameter is missing.")
        }
        guard acceptsAPIKey(apiKey) else { throw Invalid(message: "The API key is not valid for this project.") }
        guard let bundleID = try field("ibi", max: 255, allowed: { alnum($0) || $0 == "." || $0 == "-" }) else {
            throw Invalid(message: "The ibi (bundle ID) parameter is missing.")
        }
        guard let eventID = try field("eventId", max: 64, allowed: alnum) else { throw Invalid(message: "The eventId parameter is missing.") }
        let clientID = try field("clientId", max: 255, allowed: { alnum($0) || $0 == "." || $0 == "-" || $0 == "_" })
        let appID = try field("appId", max: 255, allowed: { alnum($0) || $0 == ":" || $0 == "-" || $0 == "_" })
        guard clientID != nil || appID != nil else { throw Invalid(message: "Either clientId or appId is needed.") }
        self.apiKey = apiKey
        self.bundleID = bundleID
        self.eventID = eventID
        self.clientID = clientID
        self.appID = appID
        language = try field("hl", max: 35, allowed: { alnum($0) || $0 == "-" || $0 == "_" }) ?? "en"
        version = try field("v", max: 200, allowed: { $0.value >= 0x20 && $0.value < 0x7f })
        guard callbackScheme.first?.isLetter == true else { throw Invalid(message: "The clientId or appId parameter is not valid.") }
    }

    /// The app's URL scheme, as FirebaseAuth registers it: the reversed client ID
    /// (`123-abc.apps.googleusercontent.com` → `com.googleusercontent.apps.123-abc`) when `clientId` is given,
    /// else `app-` and the Google app ID with `:` replaced by `-` (`1:123:ios:abc` → `app-1-123-ios-abc`).
    var callbackScheme: String { Self.callbackScheme(clientID: clientID, appID: appID) ?? "" }

    /// The URL scheme of `clientId` (preferred) or `appId`; `nil` without either.
    static func callbackScheme(clientID: String?, appID: String?) -> String? {
        if let clientID { return clientID.split(separator: ".").reversed().joined(separator: ".") }
        guard let appID else { return nil }
        return "app-" + String(appID.map { $0 == ":" ? "-" : $0 })
    }

    /// The fields the page's form posts back.
    var hidden: [(name: String, value: String)] {
        var out: [(String, String)] = [("apiKey", apiKey), ("authType", "verifyApp"), ("ibi", bundleID), ("eventId", eventID)]
        if let clientID { out.append(("clientId", clientID)) }
        if let appID { out.append(("appId", appID)) }
        out.append(("hl", language))
        if let version { out.append(("v", version)) }
        return out
    }
}
