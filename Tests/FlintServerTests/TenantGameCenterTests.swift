import FlintCore
import FlintServerTestSupport
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

@Suite("Game Center in tenants: each tenant's gc.apple.com, accounts and sessions")
struct TenantGameCenterTests {
    /// Tenants A and B on `engine`, each with `gc.apple.com` enabled in its `defaultSupportedIdpConfigs` (the project has
    /// it off), the project's iOS app, and Game Center's stand-in.
    func withTenantGameCenter(
        _ engine: StoreEngine, _ body: @escaping @Sendable (API, StandInGameCenter, _ a: String, _ b: String) async throws -> Void
    ) async throws {
        let gameCenter = try StandInGameCenter()
        try await gameCenter.serve {
            let configure: (inout ServerSettings) -> Void = {
                $0.devMode = true
                $0.identityProviderStandIns = ["gc.apple.com": gameCenter.origin]
            }
            try await engine.serve(try await engine.freshLocation(), configure: configure) { api in
                let open = #","allowPasswordSignup":true,"enableAnonymousUser":true}"#
                let a = try await TenantTests.create(api, #"{"displayName":"games-a""# + open)
                let b = try await TenantTests.create(api, #"{"displayName":"games-b""# + open)
                for tenant in [a, b] { try await api.configureTenantIdp(tenant, "gc.apple.com", ["enabled": true]) }
                try await api.allowApp()
                try await body(api, gameCenter, a, b)
            }
        }
    }

    /// A fresh signature of `player`, naming `tenant` (none for `nil`).
    static func credential(_ gameCenter: StandInGameCenter, _ api: API, player: String, tenant: String?) throws -> [String: JSONValue] {
        var body = try gameCenter.credential(teamPlayerID: player, time: api.clock.now())
        if let tenant { body["tenantId"] = .string(tenant) }
        return body
    }

    @Test(
        "the same player in two tenants is two accounts, each signing in to its own tenant's only, with the tenant's tokens",
        arguments: StoreEngine.all)
    func playerPerTenant(engine: StoreEngine) async throws {
        try await withTenantGameCenter(engine) { api, gameCenter, a, b in
            // The project has no Game Center: the tenants' settings are theirs alone.
            let inProject = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_p", tenant: nil))
            #expect(inProject.errorCode == "OPERATION_NOT_ALLOWED", "\(inProject.text)")
            let inA = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_p", tenant: a), path: Path.gameCenter)
            #expect(inA.status == .ok && inA["isNewUser"] == .bool(true), "\(inA.text)")
            #expect(TenantFederatedTests.tenant(of: inA) == a)
            let inB = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_p", tenant: b))
            #expect(inB.status == .ok && inB["isNewUser"] == .bool(true), "\(inB.text)")
            #expect(TenantFederatedTests.tenant(of: inB) == b && inB.string("localId") != inA.string("localId"))
            let againA = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_p", tenant: a))
            #expect(againA.string("localId") == inA.string("localId") && againA["isNewUser"] == .bool(false), "\(againA.text)")
            // A's refresh token mints A's tokens for A's account.
            let refreshed = try await api.refresh(try #require(againA.string("refreshToken")))
            let claims = try JWT.payload(try #require(refreshed.string("id_token"), "\(refreshed.text)"))
            #expect(claims["firebase"]?["tenant"] == .string(a) && claims["user_id"]?.stringValue == inA.string("localId"))
            #expect(claims["firebase"]?["sign_in_provider"] == "gc.apple.com")
            // Each tenant's account holds the player; the project has no account.
            for (tenant, reply) in [(a, inA), (b, inB)] {
                let users = try await api.admin(.get, "\(Path.v1)/projects/\(project)/tenants/\(tenant)/accounts:batchGet?maxResults=10")
                #expect(users["users"]?.arrayValue?.map { $0["localId"] } == [reply["localId"]], "\(users.text)")
            }
            let projectUsers = try await api.admin(.get, "\(Path.v1)/projects/\(project)/accounts:batchGet?maxResults=10")
            #expect(projectUsers["users"] == nil, "\(projectUsers.text)")
        }
    }

    @Test(
        "linking in a tenant takes that tenant's ID token only; a token alone (as FirebaseAuth sends it) links in its own tenant",
        arguments: StoreEngine.all)
    func linkingInTenants(engine: StoreEngine) async throws {
        try await withTenantGameCenter(engine) { api, gameCenter, a, b in
            let guestA = try await api.postRaw(Path.signUp, try TenantUsersTests.body(["returnSecureToken": "true"], tenant: a))
            let guestB = try await api.postRaw(Path.signUp, try TenantUsersTests.body(["returnSecureToken": "true"], tenant: b))
            let tokenB = try #require(guestB.string("idToken"), "\(guestB.text)")
            let mismatch = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_q", tenant: a), idToken: tokenB)
            #expect(mismatch.errorCode == "TENANT_ID_MISMATCH", "\(mismatch.text)")
            // FirebaseAuth names no tenant: B's token chooses B, and the player is linked to B's guest.
            let linkedB = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_q", tenant: nil), idToken: tokenB)
            #expect(linkedB.status == .ok && linkedB.string("localId") == guestB.string("localId"), "\(linkedB.text)")
            #expect(TenantFederatedTests.tenant(of: linkedB) == b)
            // In A the player is nobody's yet: A's sign-in creates A's account, never B's guest.
            let inA = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_q", tenant: a))
            #expect(inA["isNewUser"] == .bool(true) && inA.string("localId") != guestB.string("localId"), "\(inA.text)")
            // A's guest cannot take the player A's account holds; B's guest still signs in as itself with it.
            let taken = try await api.signInWithGameCenter(
                try Self.credential(gameCenter, api, player: "T:_q", tenant: a), idToken: guestA.string("idToken"))
            #expect(taken.errorCode == "FEDERATED_USER_ID_ALREADY_LINKED", "\(taken.text)")
            let inB = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_q", tenant: b))
            #expect(inB.string("localId") == guestB.string("localId"), "\(inB.text)")
        }
    }

    @Test("a tenant without Game Center, one whose disableAuth is on, and an unknown tenant refuse the player")
    func refusals() async throws {
        try await withTenantGameCenter(.sqlite) { api, gameCenter, a, b in
            let off = try await api.admin(
                .patch, "\(TenantTests.tenants)/\(b)/defaultSupportedIdpConfigs/gc.apple.com?updateMask=enabled", body: #"{"enabled":false}"#)
            #expect(off.status == .ok, "\(off.text)")
            let disabledIdp = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_r", tenant: b))
            #expect(disabledIdp.errorCode == "OPERATION_NOT_ALLOWED", "\(disabledIdp.text)")
            let none = try await TenantTests.create(api, #"{"displayName":"no-games"}"#)
            let unconfigured = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_r", tenant: none))
            #expect(unconfigured.errorCode == "OPERATION_NOT_ALLOWED", "\(unconfigured.text)")
            let disable = try await api.admin(.patch, "\(TenantTests.tenants)/\(a)?updateMask=disableAuth", body: #"{"disableAuth":true}"#)
            #expect(disable.status == .ok, "\(disable.text)")
            let disabled = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_r", tenant: a))
            #expect(disabled.errorCode == "PROJECT_DISABLED", "\(disabled.text)")
            let unknown = try await api.signInWithGameCenter(try Self.credential(gameCenter, api, player: "T:_r", tenant: "nobody-1"))
            #expect(unknown.errorCode == "TENANT_NOT_FOUND", "\(unknown.text)")
            var snake = try Self.credential(gameCenter, api, player: "T:_r", tenant: nil)
            snake["tenant_id"] = "nobody-2"
            let unknownSnake = try await api.signInWithGameCenter(snake)
            #expect(unknownSnake.errorCode == "TENANT_NOT_FOUND", "tenant_id names the tenant too: \(unknownSnake.text)")
        }
    }
}
