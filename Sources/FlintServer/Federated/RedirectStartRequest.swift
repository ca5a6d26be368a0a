import FlintCore

/// The query of `/__/auth/handler` that starts a provider sign-in, as the SDKs open it:
/// iOS (`OAuthProvider.getCredentialWith`): `apiKey`, `authType=signInWithRedirect`, `ibi` (bundle ID), `sessionId`
/// (SHA-256 hex of the session ID the SDK keeps), `v`, `eventId`, `providerId`, `clientId` or `appId` (the app's URL
/// scheme), optional `scopes` (comma-separated), `customParameters` (a JSON object of strings), `tid`, `hl`;
/// the Firebase JS SDK (`signInWithPopup`, `signInWithRedirect`, `linkWith…`, `reauthenticateWith…`): `apiKey`,
/// `appName`, `authType` (one of ``webSDKAuthTypes``), `redirectUrl` (the page's whole URL), `v`, `providerId`, optional
/// `eventId` (10 digits for a popup, `<uid>:::<10 digits>` for a link or reauthentication by redirect), `scopes`,
/// `customParameters`, `tid`; no `sessionId` (Flint makes one, ``WebSDKHandoff``);
/// a plain web page: `apiKey`, `authType` (`signInViaRedirect`, `signInViaPopup`), `redirectUrl`, `providerId`, optional
/// `eventId`, `sessionId`, `scopes`, `customParameters`, `hl`.
struct RedirectStartRequest: Sendable {
    var apiKey: String
    var authType: String
    var providerID: String
    var eventID: String
    /// Lower-case SHA-256 hex of the session ID: the iOS SDK's; for the JS SDK the one Flint makes (set by
    /// ``WebSDKHandoff``); empty when a plain web page named none.
    var sessionHash: String
    /// The iOS bundle ID (`ibi`), for an app.
    var bundleID: String?
    var target: RedirectState.Target
    var scopes: [String]
    var customParameters: [(String, String)]
    var language: String?
    /// The tenant the sign-in runs in (`tid`); empty for the project's own users.
    var tenantID: String

    typealias Invalid = HandlerQuery.Invalid

    /// The `authType`s that start a provider sign-in.
    static let authTypes: Set<String> = webSDKAuthTypes.union(["signInWithRedirect"])
    /// The `authType`s of the JS SDK's popups and redirects.
    static let webSDKAuthTypes: Set<String> = [
        "signInViaPopup", "linkViaPopup", "reauthViaPopup", "signInViaRedirect", "linkViaRedirect", "reauthViaRedirect",
    ]
    /// The longest `redirectUrl` taken from the JS SDK (the page's whole URL); a plain page's is shorter.
    static let maxSDKRedirectURL = 4096

    /// Validates the query's form; what depends on the project (API key, provider, bundle ID, domain) is checked by
    /// ``FederatedRedirect``.
    /// - Throws: ``Invalid`` naming the first bad parameter.
    init(_ fields: [String: String]) throws(Invalid) {
        let query = HandlerQuery(fields)
        guard let authType = fields["authType"], Self.authTypes.contains(authType) else {
            throw Invalid(message: "The authType parameter is not valid.")
        }
        guard let apiKey = try query.apiKey() else { throw Invalid(message: "The apiKey parameter is missing.") }
        guard let providerID = try query.field("providerId", max: 64, allowed: HandlerQuery.letters(or: ".-_")) else {
            throw Invalid(message: "The providerId parameter is missing.")
        }
        tenantID = try query.field("tid", max: 64, allowed: HandlerQuery.letters(or: "-")) ?? ""
        let session = try query.field(
            "sessionId", max: 64, allowed: { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) })
        guard session == nil || session?.utf8.count == 64 else { throw Invalid(message: "The sessionId parameter is not valid.") }
        let appName = try query.field("appName", max: 128, allowed: { HandlerQuery.printable($0) })
        let sdk = appName != nil && (fields["ibi"] ?? "").isEmpty
        let eventID =
            sdk
            ? try query.field("eventId", max: 200, allowed: { HandlerQuery.printable($0) && $0 != " " }) ?? ""
            : try query.field("eventId", max: 64, allowed: HandlerQuery.letters(or: "-_")) ?? ""
        if let redirect = fields["redirectUrl"], !redirect.isEmpty {
            guard redirect.utf8.count <= (sdk ? Self.maxSDKRedirectURL : 1000), let url = ContinueURL(redirect),
                url.scheme == "https" || url.scheme == "http"
            else { throw Invalid(message: "The redirectUrl parameter is not an absolute http(s) URL.") }
            if let appName, sdk {
                guard Self.webSDKAuthTypes.contains(authType) else { throw Invalid(message: "The authType parameter is not valid.") }
                target = .sdk(apiKey: apiKey, appName: appName, redirectURL: redirect)
            } else {
                target = .web(redirectURL: redirect)
            }
        } else if sdk {
            throw Invalid(message: "The redirectUrl parameter is missing.")
        } else {
            guard let bundleID = try query.bundleID() else { throw Invalid(message: "Either redirectUrl or ibi (the iOS bundle ID) is needed.") }
            guard session != nil else { throw Invalid(message: "The sessionId parameter is missing.") }
            guard !eventID.isEmpty else { throw Invalid(message: "The eventId parameter is missing.") }
            let scheme = WebChallengeParameters.callbackScheme(clientID: try query.clientID(), appID: try query.appID())
            guard let scheme, scheme.first?.isLetter == true else {
                throw Invalid(message: "Either clientId or appId is needed.")
            }
            self.bundleID = bundleID
            target = .app(scheme: scheme)
        }
        (self.apiKey, self.authType, self.providerID, self.eventID) = (apiKey, authType, providerID, eventID)
        sessionHash = sdk ? "" : session?.lowercased() ?? ""
        let scopeText = try query.field("scopes", max: 1024, allowed: { HandlerQuery.printable($0) && $0 != "\"" }) ?? ""
        scopes = scopeText.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        customParameters = try Self.customParameters(fields["customParameters"])
        language = try query.language()
    }

    /// The custom parameters of the authorization request: a JSON object of strings, in name order.
    private static func customParameters(_ text: String?) throws(Invalid) -> [(String, String)] {
        guard let text, !text.isEmpty else { return [] }
        guard text.utf8.count <= 2048, let object = (try? JSONValue(parsing: Array(text.utf8)))?.objectValue else {
            throw Invalid(message: "The customParameters parameter is not a JSON object.")
        }
        var out: [(String, String)] = []
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let string = value.stringValue ?? value.boolValue.map({ $0 ? "true" : "false" }) else {
                throw Invalid(message: "The customParameters values must be strings.")
            }
            out.append((name, string))
        }
        return out
    }
}
