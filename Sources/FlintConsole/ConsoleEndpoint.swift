package import FlintServer
import HTTPTypes

/// The web console's pages (`GET`) and forms (`POST`), each declared once as an ``Endpoint`` of access
/// ``EndpointAccess/console``, outside the OpenAPI document. ``ConsoleRoutes`` gives each its handler.
package enum ConsoleEndpoint: CaseIterable, Sendable {
    case root, stylesheet, script
    case showSignIn, signIn, showCode, submitCode, signOut, showSetup, submitSetup
    case dashboard, users, user, act, bulkAct, showNewUser, createUser, deliveries, security, showKeys, rotateKeys, webhooks, actOnWebhooks
    case templates, saveTemplate, previewTemplate, settings, changeTestNumbers, changeSettings, changeProvider, blockingDryRun
    /// The sign-in methods grid's switch, and a provider's test sign-in (its start and its result).
    case changeProviderState, startProviderTest, providerTestResult
    case usageCSV, transfers, importUsers, importJob, exportUsers
    /// The generic OIDC and SAML providers of the project or the URL's tenant, a provider's page (`oidc` and `saml`: a
    /// new one's form), its form and its deletion.
    case identityProviders, showIdentityProvider, saveIdentityProvider, deleteIdentityProvider
    /// Dev mode's outbox page.
    case outbox
    /// The tenants page (the picker: a search and pages), a new tenant's form, a tenant's page, its form and its deletion.
    case tenants, createTenant, showTenant, saveTenant, deleteTenant

    /// The endpoint's facts.
    package var endpoint: Endpoint {
        switch self {
        case .root: Self.page(.get, "/console")
        case .stylesheet: Self.page(.get, ConsoleStylesheet.path)
        case .script: Self.page(.get, ConsoleScript.path)
        case .showSignIn: Self.page(.get, "/console/sign-in")
        case .signIn: Self.page(.post, "/console/sign-in")
        case .showCode: Self.page(.get, "/console/sign-in/totp")
        case .submitCode: Self.page(.post, "/console/sign-in/totp")
        case .signOut: Self.page(.post, "/console/sign-out")
        case .showSetup: Self.page(.get, "/console/setup")
        case .submitSetup: Self.page(.post, "/console/setup")
        case .dashboard: Self.page(.get, "/console/dashboard")
        case .users: Self.page(.get, "/console/users")
        case .user: Self.page(.get, "/console/users/{uid}")
        case .act: Self.page(.post, "/console/users/{uid}/actions")
        case .bulkAct: Self.page(.post, "/console/users/bulk")
        case .showNewUser: Self.page(.get, "/console/new-user")
        case .createUser: Self.page(.post, "/console/new-user")
        case .deliveries: Self.page(.get, "/console/deliveries")
        case .security: Self.page(.get, "/console/security")
        case .showKeys: Self.page(.get, "/console/keys")
        case .rotateKeys: Self.page(.post, "/console/keys")
        case .webhooks: Self.page(.get, "/console/webhooks")
        case .actOnWebhooks: Self.page(.post, "/console/webhooks")
        case .templates: Self.page(.get, "/console/templates")
        case .saveTemplate: Self.page(.post, "/console/templates")
        case .previewTemplate: Self.page(.post, "/console/templates/preview")
        case .settings: Self.page(.get, "/console/settings")
        case .changeTestNumbers: Self.page(.post, "/console/settings/test-numbers")
        case .changeProvider: Self.page(.post, "/console/settings/providers")
        case .blockingDryRun: Self.page(.post, "/console/settings/blocking-dry-run")
        case .changeProviderState: Self.page(.post, "/console/settings/provider-state")
        case .startProviderTest: Self.page(.post, "/console/provider-test")
        case .providerTestResult: Self.page(.get, "/console/provider-test/result")
        case .usageCSV: Self.page(.get, "/console/usage.csv")
        case .transfers: Self.page(.get, "/console/import")
        case .importUsers: Self.page(.post, "/console/import")
        case .importJob: Self.page(.get, "/console/import/{job}")
        case .exportUsers: Self.page(.post, "/console/export")
        case .identityProviders: Self.page(.get, "/console/providers")
        case .showIdentityProvider: Self.page(.get, "/console/providers/{provider}")
        case .saveIdentityProvider: Self.page(.post, "/console/providers/{provider}")
        case .deleteIdentityProvider: Self.page(.post, "/console/providers/{provider}/delete")
        case .tenants: Self.page(.get, "/console/tenants")
        case .createTenant: Self.page(.post, "/console/tenants")
        case .showTenant: Self.page(.get, "/console/tenants/{tenant}")
        case .saveTenant: Self.page(.post, "/console/tenants/{tenant}")
        case .deleteTenant: Self.page(.post, "/console/tenants/{tenant}/delete")
        // One form per settings group, at `/console/settings/{name}`.
        case .changeSettings:
            Endpoint(.post, ConsoleSettingsGroup.all.keys.sorted().map { Endpoint.Route(Self.settingsPath($0), operationID: nil) }, access: .console)
        case .outbox: Endpoint(.get, [Endpoint.Route("/console/outbox", operationID: nil)], access: .console, devModeOnly: true)
        }
    }

    /// The path every console page starts with: the console's route group.
    static let prefix = "/console"

    /// The path of a settings group's form.
    static func settingsPath(_ name: String) -> String { "/console/settings/\(name)" }

    private static func page(_ method: HTTPRequest.Method, _ path: String) -> Endpoint {
        Endpoint(method, [Endpoint.Route(path, operationID: nil)], access: .console)
    }
}
