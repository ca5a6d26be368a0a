import FlintCore
import FlintServerTestSupport
import FlintStore
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import FlintServer

/// Every endpoint of Flint's API (FlintConsoleTests holds the console's pages to the table).
private let declared = APIEndpoint.allCases.map(\.endpoint)

/// A route's path as a request names it: its parameters filled in.
private func concrete(_ path: String) -> String {
    path.replacingOccurrences(of: "{project}", with: project).replacingOccurrences(of: "{idp}", with: "google.com")
        .replacingOccurrences(of: "{uid}", with: "u1")
}

/// The sign-in routes and their methods as the metrics and the audit log counted them before the table, by path: the
/// v1, v2 and v3 forms, and the operator's `signInWithIdp` (the operator's account creation is no sign-in).
private let signInRoutes: [String: SignInMethod] = {
    let (v1, v2, v3) = (IdentityToolkitPath.v1, IdentityToolkitPath.v2, IdentityToolkitPath.v3)
    return [
        "\(v1)/accounts:signInWithPassword": .password, "\(v3)/verifyPassword": .password,
        "\(v1)/accounts:signInWithPhoneNumber": .phone, "\(v3)/verifyPhoneNumber": .phone,
        "\(v1)/accounts:signInWithEmailLink": .emailLink, "\(v3)/emailLinkSignin": .emailLink,
        "\(v1)/accounts:signUp": .signUp, "\(v3)/signupNewUser": .signUp,
        "\(v2)/accounts/mfaSignIn:finalize": .secondFactor, "\(v2)/accounts/passkeySignIn:finalize": .passkey,
        "\(v1)/accounts:signInWithCustomToken": .custom, "\(v3)/verifyCustomToken": .custom,
        "\(v1)/accounts:signInWithIdp": .idp, "\(v3)/verifyAssertion": .idp, "\(v1)/projects/{project}/accounts:signInWithIdp": .idp,
        "\(v1)/accounts:signInWithGameCenter": .idp, "\(v3)/signInWithGameCenter": .idp,
    ]
}()

@Suite("The endpoint table")
struct EndpointTableTests {
    @Test("the router serves exactly the table's routes: all of them in dev mode, all but dev mode's in production")
    func matchesTheRouter() async throws {
        try await expectRouterServes(declared, modules: [])
    }

    @Test("every GET only reads; the POSTs that read are the account lookups and queries, createAuthUri and the own sessions' list")
    func readingEndpoints() {
        for endpoint in declared where endpoint.method == .get { #expect(endpoint.onlyReads, "\(endpoint.routes)") }
        let readingPOSTs = APIEndpoint.allCases.map(\.endpoint).filter { $0.method == .post && $0.onlyReads }
        #expect(
            Set(readingPOSTs.flatMap { $0.routes.compactMap(\.operationID) }) == [
                "lookup", "lookupV3", "lookupOperator", "queryAccounts", "queryAccountsAlias", "downloadAccount", "createAuthUri", "createAuthUriV3",
                "listOwnSessions", "lookupInTenant", "queryAccountsInTenant",
            ])
        #expect(Endpoint.readScopeAllows(.get, to: nil) && Endpoint.readScopeAllows(.head, to: nil))
        #expect(!Endpoint.readScopeAllows(.post, to: nil) && !Endpoint.readScopeAllows(.delete, to: nil))
    }

    @Test("a read-scoped admin credential is refused on exactly the endpoints the table says write")
    func readScopeFollowsTheTable() async throws {
        try await AdminCredentialTests().withProduction { api, _, _, reader in
            for endpoint in declared where !endpoint.devModeOnly {
                for route in endpoint.routes {
                    let reply = try await api.bearer(reader, endpoint.method, concrete(route.path), body: endpoint.method == .get ? nil : "{}")
                    let refused = reply.status == .forbidden && reply.text.contains("may only read")
                    #expect(refused == !endpoint.onlyReads, "\(endpoint.method) \(route.path): \(reply.status) \(reply.text.prefix(200))")
                }
            }
        }
    }

    @Test("the sign-in endpoints and their methods are those the metrics and the audit log counted before the table")
    func signInMethods() {
        var named: [String: SignInMethod] = [:]
        for endpoint in declared {
            for route in endpoint.routes { named[route.path] = endpoint.signIn }
        }
        #expect(named == signInRoutes)
        #expect(Set(signInRoutes.values) == Set(SignInMethod.allCases))
    }

    @Test("a refused answer of every sign-in route is counted once in the metrics and once in the audit log, under its method")
    func refusedSignInsAreCounted() async throws {
        try await withFlint { api in
            // A body that is no JSON object is refused by every endpoint; only the sign-ins are counted.
            for endpoint in declared where endpoint.method == .post {
                for route in endpoint.routes { _ = try await api.call(.post, API.keyed(concrete(route.path)), body: "[]") }
            }
            let audited = try await api.auditEvents("kind=SIGN_IN_FAILED&pageSize=1000").compactMap { $0["detail"]?["method"]?.stringValue }
            #expect(audited.sorted() == signInRoutes.values.map(\.rawValue).sorted())
            let metrics = try await api.metrics()
            for method in SignInMethod.allCases {
                let counted = metrics.values.filter { $0.key.hasPrefix("flint_sign_ins_total{method=\"\(method.rawValue)\",") }.values.reduce(0, +)
                #expect(counted == Double(signInRoutes.values.filter { $0 == method }.count), "\(method)")
            }
        }
    }
}
