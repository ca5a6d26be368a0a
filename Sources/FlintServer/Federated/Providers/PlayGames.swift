import FlintCore

/// `playgames.google.com`: Google Play Games Services. The Android SDK's `PlayGamesAuthProvider` sends the server auth
/// code Play Games gave the game (`code`); it is exchanged at Google's token endpoint with the configured web client
/// (`clientId`, `clientSecret`) and an empty `redirect_uri`, as Google takes codes made for a server, and the access
/// token names the player (`GET games/v1/players/me`): `playerId` is the raw ID, `displayName` and `avatarImageUrl`
/// the profile. Play Games gives no email. There is no web flow.
struct PlayGames: BuiltInProvider {
    var providerID: String { "playgames.google.com" }

    static let token = "https://oauth2.googleapis.com/token"
    static let player = "https://games.googleapis.com/games/v1/players/me"

    func credential(_ body: IdpPostBody, requestUri: String, provider: IdentityProviderConfig, flow: FederatedSignIn)
        async throws(AuthError) -> ProviderCredential
    {
        guard let code = body.code, !code.isEmpty else {
            throw AuthError.invalidCredentialOrProviderID.with(
                detail: "Invalid IdP response/credential: send the Play Games server auth code (code) for playgames.google.com.")
        }
        let keys = flow.keys
        let endpoints = ProviderEndpoints(
            authorization: "", token: keys.address(Self.token, provider: providerID), secretInForm: true, defaultScopes: [])
        // A server auth code is redeemed with an empty redirect URI.
        let answer = try await flow.redeem(code: code, verifier: nil, requestUri: "", provider: provider, at: endpoints)
        guard let accessToken = answer["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AuthError.invalidIdpResponse("Google answered no access token for the server auth code.")
        }
        guard let reply = await keys.getJSON(keys.address(Self.player, provider: providerID), bearer: accessToken) else {
            throw AuthError.invalidIdpResponse("Play Games could not be reached for the player.")
        }
        guard reply.status == 200, let player = reply.json?.objectValue, let playerID = player["playerId"]?.stringValue, !playerID.isEmpty else {
            let reason = reply.json?["error"]?["message"]?.stringValue.map { ": \($0)" } ?? ""
            throw AuthError.invalidIdpResponse("Play Games did not answer the player\(reason).")
        }
        let claims: [String: JSONValue] = [
            "sub": .string(playerID), "name": player["displayName"] ?? .null, "picture": player["avatarImageUrl"] ?? .null,
        ]
        return ProviderCredential(
            claims: player, profile: ProviderProfile(claims: claims), oauthIdToken: answer["id_token"]?.stringValue, oauthAccessToken: accessToken)
    }
}
