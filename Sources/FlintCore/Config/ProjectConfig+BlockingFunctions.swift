/// Identity Platform's blocking functions (`blockingFunctions` of the admin v2 `Config`):
/// `{"triggers": {"beforeCreate": {"functionUri": "https://…"}, "beforeSignIn": {…}, "beforeSendEmail": {…},
/// "beforeSendSms": {…}}, "forwardInboundCredentials": {"idToken": true, "accessToken": false, "refreshToken": false}}`.
/// Each trigger may carry `updateTime` (kept as given).
extension ProjectConfig {
    /// When a blocking function runs.
    package enum BlockingTrigger: String, Sendable, CaseIterable, Equatable {
        /// Before an account is saved (sign-up, a first phone, email-link or federated sign-in).
        case beforeCreate
        /// After a first factor, before the session's tokens are issued.
        case beforeSignIn
        /// Before an email is sent (sign-in links, password resets, verifications…).
        case beforeSendEmail
        /// Before an SMS code is sent.
        case beforeSendSms
    }

    /// Which of the provider's credentials a function is given (`forwardInboundCredentials`).
    package struct ForwardedCredentials: Sendable, Equatable {
        package var idToken = false
        package var accessToken = false
        package var refreshToken = false

        package init(idToken: Bool = false, accessToken: Bool = false, refreshToken: Bool = false) {
            (self.idToken, self.accessToken, self.refreshToken) = (idToken, accessToken, refreshToken)
        }
    }

    /// The function each trigger calls (`functionUri`), for the triggers that have one.
    package var blockingFunctionURIs: [BlockingTrigger: String] {
        var out: [BlockingTrigger: String] = [:]
        let triggers = document["blockingFunctions"]?["triggers"]?.objectValue ?? [:]
        for trigger in BlockingTrigger.allCases {
            if let uri = triggers[trigger.rawValue]?["functionUri"]?.stringValue, !uri.isEmpty { out[trigger] = uri }
        }
        return out
    }

    /// `blockingFunctions.forwardInboundCredentials`; none when absent.
    package var forwardedCredentials: ForwardedCredentials {
        let forward = document["blockingFunctions"]?["forwardInboundCredentials"]
        return ForwardedCredentials(
            idToken: forward?["idToken"]?.boolValue ?? false, accessToken: forward?["accessToken"]?.boolValue ?? false,
            refreshToken: forward?["refreshToken"]?.boolValue ?? false)
    }

    /// Checks `blockingFunctions` as Identity Platform does: known event types only, each with an absolute http(s)
    /// `functionUri`.
    /// - Throws: `INVALID_BLOCKING_FUNCTION` with Identity Platform's reason.
    package static func validateBlockingFunctions(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let section = doc["blockingFunctions"] else { return }
        guard let fields = section.objectValue else { throw invalidBlocking("blockingFunctions must be an object.") }
        if let triggers = fields["triggers"] {
            guard let map = triggers.objectValue else { throw invalidBlocking("blockingFunctions.triggers must be a map.") }
            for (name, trigger) in map {
                guard BlockingTrigger(rawValue: name) != nil else { throw invalidBlocking("Event type is invalid.") }
                guard let uri = trigger["functionUri"]?.stringValue, let url = ContinueURL(uri), url.scheme == "https" || url.scheme == "http",
                    !url.host.isEmpty
                else { throw invalidBlocking("Expected an absolute URI with valid scheme and host.") }
            }
        }
        if let forward = fields["forwardInboundCredentials"] {
            guard let flags = forward.objectValue,
                flags.allSatisfy({ ["idToken", "accessToken", "refreshToken"].contains($0.key) && $0.value.boolValue != nil })
            else { throw invalidBlocking("forwardInboundCredentials takes the booleans idToken, accessToken and refreshToken.") }
        }
    }

    private static func invalidBlocking(_ reason: String) -> AuthError {
        AuthError.invalidBlockingFunction.with(detail: "((\(reason)))")
    }
}
