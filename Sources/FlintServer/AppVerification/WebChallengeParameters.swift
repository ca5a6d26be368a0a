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

    typealias Invalid = HandlerQuery.Invalid

    /// Validates `fields` (query or form).
    /// - Throws: ``Invalid`` naming the first bad parameter.
    init(_ fields: [String: String], acceptsAPIKey: (String) -> Bool) throws(Invalid) {
        let query = HandlerQuery(fields)
        guard fields["authType"] == "verifyApp" else { throw Invalid(message: "authType must be verifyApp.") }
        guard let apiKey = try query.apiKey() else { throw Invalid(message: "The apiKey parameter is missing.") }
        guard acceptsAPIKey(apiKey) else { throw Invalid(message: "The API key is not valid for this project.") }
        guard let bundleID = try query.bundleID() else { throw Invalid(message: "The ibi (bundle ID) parameter is missing.") }
        guard let eventID = try query.field("eventId", max: 64, allowed: HandlerQuery.letters(or: "")) else {
            throw Invalid(message: "The eventId parameter is missing.")
        }
        let clientID = try query.clientID()
        let appID = try query.appID()
        guard clientID != nil || appID != nil else { throw Invalid(message: "Either clientId or appId is needed.") }
        self.apiKey = apiKey
        self.bundleID = bundleID
        self.eventID = eventID
        self.clientID = clientID
        self.appID = appID
        language = try query.language() ?? "en"
        version = try query.field("v", max: 200, allowed: HandlerQuery.printable)
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
