import FlintCore
import FlintServerTestSupport
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("accounts:revokeToken (Sign in with Apple)")
struct RevokeTokenTests {
    @Test("FirebaseAuth's request: the code is exchanged for the bundle ID it was issued to, and its refresh token revoked")
    func revokesAuthorizationCode() async throws {
        try await withAppleStandIn { api, apple in
            let user = try await api.signInWithApple(apple, sub: "001.apple")
            apple.issue(code: "code-1", clientID: appleBundleID, sub: "001.apple")
            // As FirebaseAuth sends it: the token type as its number, in a string.
            let reply = try await api.revokeToken(["providerId": "apple.com", "tokenType": "3", "token": "code-1", "idToken": .string(user.idToken)])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.json == .object([:]))
            #expect(apple.revoked == [.init(token: "refresh-code-1", hint: "refresh_token", clientID: appleBundleID)])
            // The services ID was tried first (the code was not its), then the bundle ID; every secret was right.
            #expect(apple.secretsChecked == 3)
            #expect(apple.secretProblems.isEmpty, "\(apple.secretProblems)")
            // The account and its session stay: revoking Apple's authorization is not signing out.
            #expect(try await api.lookup(user.idToken).status == .ok)
        }
    }

    @Test("on a node with a master key (the code-flow key sealed at rest) the key still signs the client secret")
    func sealedKeySigns() async throws {
        try await withAppleStandIn(masterKey: MasterKey.generate()) { api, apple in
            let user = try await api.signInWithApple(apple, sub: "010.apple")
            let reply = try await api.revokeToken([
                "providerId": "apple.com", "tokenType": "REFRESH_TOKEN", "token": "rt-10", "idToken": .string(user.idToken),
            ])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(apple.revoked == [.init(token: "rt-10", hint: "refresh_token", clientID: appleServicesID)])
            #expect(apple.secretProblems.isEmpty, "\(apple.secretProblems)")
        }
    }

    @Test("an access token (the JavaScript SDK's request) is revoked as it is, for the services ID")
    func revokesAccessToken() async throws {
        try await withAppleStandIn { api, apple in
            let user = try await api.signInWithApple(apple, sub: "002.apple")
            let reply = try await api.revokeToken([
                "providerId": "apple.com", "tokenType": "ACCESS_TOKEN", "token": "at-1", "idToken": .string(user.idToken),
            ])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(apple.revoked == [.init(token: "at-1", hint: "access_token", clientID: appleServicesID)])
            #expect(apple.secretProblems.isEmpty, "\(apple.secretProblems)")
        }
    }

    @Test("a code of another Apple ID, or one Apple does not know, revokes nothing")
    func refusedCodes() async throws {
        try await withAppleStandIn { api, apple in
            let user = try await api.signInWithApple(apple, sub: "003.apple")
            apple.issue(code: "other", clientID: appleBundleID, sub: "999.apple")
            let other = try await api.revokeToken([
                "providerId": "apple.com", "tokenType": "CODE", "token": "other", "idToken": .string(user.idToken),
            ])
            #expect(other.errorCode == "INVALID_IDP_RESPONSE", "\(other.text)")
            let unknown = try await api.revokeToken([
                "providerId": "apple.com", "tokenType": "CODE", "token": "unknown", "idToken": .string(user.idToken),
            ])
            #expect(unknown.errorCode == "INVALID_IDP_RESPONSE", "\(unknown.text)")
            #expect(unknown.errorMessage?.contains("Error getting access token from Apple: invalid_grant") == true, "\(unknown.text)")
            #expect(apple.revoked.isEmpty)
        }
    }

    @Test("Apple refusing the revocation is INVALID_IDP_RESPONSE")
    func appleRefuses() async throws {
        try await withAppleStandIn { api, apple in
            let user = try await api.signInWithApple(apple, sub: "004.apple")
            apple.refuseRevocations(true)
            let reply = try await api.revokeToken([
                "providerId": "apple.com", "tokenType": "REFRESH_TOKEN", "token": "rt", "idToken": .string(user.idToken),
            ])
            #expect(reply.errorCode == "INVALID_IDP_RESPONSE", "\(reply.text)")
            #expect(reply.errorMessage?.contains("invalid_client") == true, "\(reply.text)")
        }
    }

    @Test("in a tenant: the tenant's user and apple.com config, the tenant chosen by the ID token as FirebaseAuth sends none")
    func inTenant() async throws {
        try await withAppleStandIn { api, apple in
            let tenant = try await TenantTests.create(api, #"{"displayName":"apple-tenant"}"#)
            let other = try await TenantTests.create(api, #"{"displayName":"other-tenant"}"#)
            let servicesID = "com.example.tenant-signin"
            try await api.configureTenantIdp(
                tenant, "apple.com",
                [
                    "enabled": true, "clientId": .string(servicesID),
                    "appleSignInConfig": ["bundleIds": [.string(appleBundleID)], "codeFlowConfig": apple.codeFlowConfig],
                ])
            let token = try apple.issuer.token(appleClaims(api, sub: "020.apple", email: nil))
            let signedIn = try await api.signInWithIdp([("providerId", "apple.com"), ("id_token", token), ("nonce", rawNonce)], tenant: tenant)
            #expect(signedIn.status == .ok && TenantFederatedTests.tenant(of: signedIn) == tenant, "\(signedIn.text)")
            let fields: [String: JSONValue] = [
                "providerId": "apple.com", "tokenType": "ACCESS_TOKEN", "token": "at-t", "idToken": .string(try #require(signedIn.string("idToken"))),
            ]
            var elsewhere = fields
            elsewhere["tenantId"] = .string(other)
            #expect(try await api.revokeToken(elsewhere).errorCode == "TENANT_ID_MISMATCH")
            let reply = try await api.revokeToken(fields)
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(apple.revoked == [.init(token: "at-t", hint: "access_token", clientID: servicesID)], "the tenant's services ID")
            #expect(apple.secretProblems.isEmpty, "\(apple.secretProblems)")
        }
    }

    @Test("refusals: the session, the provider, the token, an account without Apple, a tenant")
    func refusals() async throws {
        try await withAppleStandIn { api, apple in
            let user = try await api.signInWithApple(apple, sub: "005.apple")
            let session = JSONValue.string(user.idToken)
            let cases: [([String: JSONValue], String)] = [
                (["providerId": "apple.com", "tokenType": "CODE", "token": "c"], "MISSING_ID_TOKEN"),
                (["providerId": "apple.com", "tokenType": "CODE", "token": "c", "idToken": "not-a-token"], "INVALID_ID_TOKEN"),
                (["providerId": "google.com", "tokenType": "CODE", "token": "c", "idToken": session], "INVALID_PROVIDER_ID"),
                (["tokenType": "CODE", "token": "c", "idToken": session], "INVALID_PROVIDER_ID"),
                (["providerId": "apple.com", "tokenType": "CODE", "idToken": session], "INVALID_ARGUMENT"),
                (["providerId": "apple.com", "token": "c", "idToken": session], "INVALID_ARGUMENT"),
                (
                    ["providerId": "apple.com", "tokenType": "SOMETHING", "token": "c", "idToken": session],
                    "Invalid JSON payload received. Invalid value at 'token_type' (type.googleapis.com/google.cloud.identitytoolkit.v2.RevokeTokenRequest.TokenType), \"SOMETHING\""
                ),
                (["providerId": "apple.com", "tokenType": .number(3), "token": "unknown", "idToken": session], "INVALID_IDP_RESPONSE"),
                (["providerId": "apple.com", "tokenType": "CODE", "token": "c", "idToken": session, "tenantId": "t1"], "TENANT_NOT_FOUND"),
            ]
            for (body, code) in cases {
                let reply = try await api.revokeToken(body)
                #expect(reply.errorCode == code, "\(body): \(reply.text)")
            }
            let passwordUser = try await api.signUp("ada@example.com")
            let noApple = try await api.revokeToken([
                "providerId": "apple.com", "tokenType": "CODE", "token": "c", "idToken": .string(passwordUser.idToken),
            ])
            #expect(noApple.errorCode == "NO_SUCH_PROVIDER", "\(noApple.text)")
            #expect(apple.revoked.isEmpty)
        }
    }

    @Test("without a code flow configuration, or with apple.com disabled, nothing is sent to Apple")
    func configuration() async throws {
        try await withAppleStandIn { api, apple in
            let user = try await api.signInWithApple(apple, sub: "006.apple")
            let body: [String: JSONValue] = ["providerId": "apple.com", "tokenType": "CODE", "token": "c", "idToken": .string(user.idToken)]
            let resource = "\(Path.defaultIdps)/apple.com"
            let cleared = try await api.admin(.patch, resource + "?updateMask=appleSignInConfig.codeFlowConfig", body: "{}")
            #expect(cleared.status == .ok, "\(cleared.text)")
            let unconfigured = try await api.revokeToken(body)
            #expect(unconfigured.errorCode == "INVALID_IDP_RESPONSE", "\(unconfigured.text)")
            #expect(unconfigured.errorMessage?.contains("codeFlowConfig") == true)
            let disabled = try await api.admin(.patch, resource + "?updateMask=enabled", body: #"{"enabled":false}"#)
            #expect(disabled.status == .ok, "\(disabled.text)")
            #expect(try await api.revokeToken(body).errorCode == "OPERATION_NOT_ALLOWED")
            #expect(apple.secretsChecked == 0)
        }
    }
}
