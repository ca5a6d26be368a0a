import FlintCore

/// A federated first factor's facts carried through a second factor: an MFA pending credential seals them
/// (``MFAPendingCredential/blockingFacts``), so the `beforeSignIn` function called at `mfaSignIn:finalize` is told what
/// it would have been told without a second factor — `sign_in_attributes` (from the credential's session claims),
/// `raw_user_info` and the `oauth_*` credentials `forwardInboundCredentials` forwards.
extension ProviderFacts {
    /// The facts to seal when `config` has a `beforeSignIn` function (none otherwise), in the function event's field
    /// names; only the credentials `config` forwards, so nothing a function would not get is carried.
    func carried(for config: ProjectConfig) -> [String: JSONValue]? {
        guard config.blockingFunctionURIs[.beforeSignIn] != nil else { return nil }
        let forwarded = config.forwardedCredentials
        var facts: [String: JSONValue] = [:]
        if let rawUserInfo { facts["raw_user_info"] = .string(rawUserInfo) }
        if forwarded.idToken, let idToken { facts["oauth_id_token"] = .string(idToken) }
        if forwarded.accessToken, let accessToken {
            facts["oauth_access_token"] = .string(accessToken)
            if let tokenSecret { facts["oauth_token_secret"] = .string(tokenSecret) }
        }
        if forwarded.refreshToken, let refreshToken { facts["oauth_refresh_token"] = .string(refreshToken) }
        return facts.isEmpty ? nil : facts
    }

    /// The facts a pending credential carried: its sealed `facts` and the `firebase.sign_in_attributes` of its
    /// session claims.
    init(carried facts: [String: JSONValue]?, sessionClaims: [String: JSONValue]?) {
        self.init()
        rawUserInfo = facts?["raw_user_info"]?.stringValue
        idToken = facts?["oauth_id_token"]?.stringValue
        accessToken = facts?["oauth_access_token"]?.stringValue
        tokenSecret = facts?["oauth_token_secret"]?.stringValue
        refreshToken = facts?["oauth_refresh_token"]?.stringValue
        signInAttributes = sessionClaims?["firebase"]?["sign_in_attributes"]?.objectValue
    }
}
