import FlintCore
import FlintTexts
import HTTPTypes

/// Every endpoint of Flint's API, each declared once (``Endpoint``): its paths and aliases with their OpenAPI
/// operations, who may call it, and the sign-in method it counts as. `App/Router.swift` gives each its handler.
package enum APIEndpoint: CaseIterable, Sendable {
    // Phone
    case sendVerificationCode, signInWithPhoneNumber
    // App verification, the hosted handler and the JS SDK's pages
    case verifyClient, getRecaptchaConfig, getRecaptchaParams, authHandler, submitWebChallenge
    case authIframe, authIframeScript, authHandlerScript, authGapiStandIn
    // Accounts
    case lookup, deleteAccount, update, batchCreate, batchGet, downloadAccount, queryAccounts, batchDelete
    // Email links and action codes
    case sendOobCode, signInWithEmailLink, showActionPage, submitActionPage
    // Password
    case signUp, createAccount, signInWithPassword, resetPassword, createAuthUri, getPasswordPolicy
    // Federated and custom-token sign-in
    case signInWithIdp, revokeToken, signInWithCustomToken
    case signInWithGameCenter
    // Multi-factor authentication
    case startMfaEnrollment, finalizeMfaEnrollment, withdrawMfa, startMfaSignIn, finalizeMfaSignIn, regenerateRecoveryCodes
    // Passkeys
    case startPasskeyEnrollment, finalizePasskeyEnrollment, startPasskeySignIn, finalizePasskeySignIn
    // App links
    case appleAppSiteAssociation, assetLinks
    // Tokens, keys and session cookies
    case refreshToken, x509Certificates, jwks, createSessionCookie, sessionCookieCertificates, sessionCookieJWKS, rotateKeys, revokeKey
    // Project config and identity providers
    case getConfig, updateConfig, getProjectConfig
    case createDefaultSupportedIdpConfig, listDefaultSupportedIdpConfigs, getDefaultSupportedIdpConfig
    case updateDefaultSupportedIdpConfig, deleteDefaultSupportedIdpConfig
    case createOAuthIdpConfig, listOAuthIdpConfigs, getOAuthIdpConfig, updateOAuthIdpConfig, deleteOAuthIdpConfig
    case createInboundSamlConfig, listInboundSamlConfigs, getInboundSamlConfig, updateInboundSamlConfig, deleteInboundSamlConfig
    // Tenants
    case createTenant, listTenants, getTenant, updateTenant, deleteTenant
    // Operations
    case adminOutbox, auditEvents, blockingDryRun, metrics, openapi
    // Account lockout (a Flint extension)
    case getAccountLock, unlockAccount
    // Event webhooks (a Flint extension)
    case listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, listWebhookDeliveries, replayWebhookDelivery
    // Sessions per device (a Flint extension): the signed-in user's and the operator's
    case listOwnSessions, endOwnSession, endOtherSessions, listUserSessions, endUserSession
    // Dev mode: the emulator's paths
    case ready, devVerificationCodes, devOutbox, devOobCodes, devPushes, devDeleteAccounts, devConfig, devUpdateConfig

    /// The endpoint's facts.
    package var endpoint: Endpoint {
        switch self {
        case .sendVerificationCode: .identityToolkit(v1: "accounts:sendVerificationCode", v3: "sendVerificationCode", "sendVerificationCode")
        case .signInWithPhoneNumber:
            .identityToolkit(v1: "accounts:signInWithPhoneNumber", v3: "verifyPhoneNumber", "signInWithPhoneNumber", signIn: .phone)

        case .verifyClient: .identityToolkit(v1: "accounts:verifyClient", v3: "verifyClient", "verifyClient")
        case .getRecaptchaConfig: .at(.get, "\(IdentityToolkitPath.v2)/recaptchaConfig", "getRecaptchaConfig", access: .clientRead, tenant: .handled)
        case .getRecaptchaParams:
            .identityToolkit(.get, v1: "recaptchaParams", v3: "getRecaptchaParam", "getRecaptchaParams", access: .clientRead)
        case .authHandler:
            Endpoint(
                .get,
                [
                    .init(AppVerificationRoutes.handlerPath, operationID: "authHandler"),
                    .init(AuthHandlerRoutes.emulatorPath, operationID: "authHandlerEmulator"),
                ],
                access: .open)
        case .submitWebChallenge: .at(.post, AppVerificationRoutes.handlerPath, "submitWebChallenge", access: .open)
        case .authIframe:
            Endpoint(
                .get,
                [.init(AuthIframeRoutes.path, operationID: "authIframe"), .init(AuthIframeRoutes.emulatorPath, operationID: "authIframeEmulator")],
                access: .open)
        case .authIframeScript: .at(.get, WebSDKPage.iframeScriptPath, "authIframeScript", access: .open)
        case .authHandlerScript: .at(.get, WebSDKPage.handlerScriptPath, "authHandlerScript", access: .open)
        case .authGapiStandIn: .at(.get, GapiStandIn.path, "authGapiStandIn", access: .open)

        case .lookup:
            .identityToolkit(v1: "accounts:lookup", v3: "getAccountInfo", operator: "accounts:lookup", "lookup", access: .clientRead, tenant: .scoped)
        case .deleteAccount:
            .identityToolkit(v1: "accounts:delete", v3: "deleteAccount", operator: "accounts:delete", "deleteAccount", tenant: .scoped)
        case .update: .identityToolkit(v1: "accounts:update", v3: "setAccountInfo", operator: "accounts:update", "update", tenant: .scoped)
        case .batchCreate:
            .identityToolkit(
                v1: "accounts:batchCreate", v3: "uploadAccount", operator: "accounts:batchCreate", "batchCreate", access: .adminWrite, tenant: .scoped
            )
        case .batchGet: .tenantOperator(.get, "accounts:batchGet", "batchGet", access: .adminRead)
        case .downloadAccount: .at(.post, "\(IdentityToolkitPath.v3)/downloadAccount", "downloadAccount", access: .adminRead)
        case .queryAccounts:
            Endpoint(
                .post,
                [
                    .init("\(Self.operatorV1)/accounts:query", operationID: "queryAccounts"),
                    .init("\(Self.operatorV1):queryAccounts", operationID: "queryAccountsAlias"),
                    .init("\(Self.tenantV1)/accounts:query", operationID: "queryAccountsInTenant"),
                ],
                access: .adminRead, tenant: .scoped)
        case .batchDelete: .tenantOperator(.post, "accounts:batchDelete", "batchDelete", access: .adminWrite)

        case .sendOobCode:
            .identityToolkit(
                v1: "accounts:sendOobCode", v3: "getOobConfirmationCode", operator: "accounts:sendOobCode", "sendOobCode", tenant: .scoped)
        case .signInWithEmailLink:
            .identityToolkit(v1: "accounts:signInWithEmailLink", v3: "emailLinkSignin", "signInWithEmailLink", signIn: .emailLink, tenant: .scoped)
        case .showActionPage: .at(.get, ActionRoutes.path, "showActionPage", access: .open)
        case .submitActionPage: .at(.post, ActionRoutes.path, "submitActionPage", access: .open)

        case .signUp: .identityToolkit(v1: "accounts:signUp", v3: "signupNewUser", "signUp", signIn: .signUp, tenant: .scoped)
        // The Admin SDKs' account creation: the same handler as `signUp`, but no sign-in.
        case .createAccount: .tenantOperator(.post, "accounts", "signUpOperator", access: .adminWrite)
        case .signInWithPassword:
            .identityToolkit(v1: "accounts:signInWithPassword", v3: "verifyPassword", "signInWithPassword", signIn: .password, tenant: .scoped)
        case .resetPassword: .identityToolkit(v1: "accounts:resetPassword", v3: "resetPassword", "resetPassword", tenant: .scoped)
        case .createAuthUri:
            .identityToolkit(v1: "accounts:createAuthUri", v3: "createAuthUri", "createAuthUri", access: .clientRead, tenant: .scoped)
        case .getPasswordPolicy: .at(.get, "\(IdentityToolkitPath.v2)/passwordPolicy", "getPasswordPolicy", access: .clientRead, tenant: .handled)

        case .signInWithIdp:
            .identityToolkit(
                v1: "accounts:signInWithIdp", v3: "verifyAssertion", operator: "accounts:signInWithIdp", "signInWithIdp", signIn: .idp,
                tenant: .scoped,
                operatorInTenants: false)
        case .signInWithGameCenter:
            .identityToolkit(
                v1: "accounts:signInWithGameCenter", v3: "signInWithGameCenter", "signInWithGameCenter", signIn: .idp, tenant: .scoped)
        case .revokeToken: .at(.post, "\(IdentityToolkitPath.v2)/accounts:revokeToken", "revokeToken", access: .client, tenant: .scoped)
        case .signInWithCustomToken:
            .identityToolkit(
                v1: "accounts:signInWithCustomToken", v3: "verifyCustomToken", "signInWithCustomToken", signIn: .custom, tenant: .scoped)

        case .startMfaEnrollment: .at(.post, "\(Self.v2Accounts)/mfaEnrollment:start", "startMfaEnrollment", access: .client, tenant: .scoped)
        case .finalizeMfaEnrollment:
            .at(.post, "\(Self.v2Accounts)/mfaEnrollment:finalize", "finalizeMfaEnrollment", access: .client, tenant: .scoped)
        case .withdrawMfa: .at(.post, "\(Self.v2Accounts)/mfaEnrollment:withdraw", "withdrawMfa", access: .client, tenant: .scoped)
        case .startMfaSignIn: .at(.post, "\(Self.v2Accounts)/mfaSignIn:start", "startMfaSignIn", access: .client, tenant: .scoped)
        case .finalizeMfaSignIn:
            .at(.post, "\(Self.v2Accounts)/mfaSignIn:finalize", "finalizeMfaSignIn", access: .client, signIn: .secondFactor, tenant: .scoped)
        case .regenerateRecoveryCodes:
            .at(.post, "/flint/v1/accounts/mfaRecoveryCodes:regenerate", "regenerateRecoveryCodes", access: .client, tenant: .scoped)

        case .startPasskeyEnrollment:
            .at(.post, "\(Self.v2Accounts)/passkeyEnrollment:start", "startPasskeyEnrollment", access: .client, tenant: .scoped)
        case .finalizePasskeyEnrollment:
            .at(.post, "\(Self.v2Accounts)/passkeyEnrollment:finalize", "finalizePasskeyEnrollment", access: .client, tenant: .scoped)
        case .startPasskeySignIn: .at(.post, "\(Self.v2Accounts)/passkeySignIn:start", "startPasskeySignIn", access: .client, tenant: .scoped)
        case .finalizePasskeySignIn:
            .at(.post, "\(Self.v2Accounts)/passkeySignIn:finalize", "finalizePasskeySignIn", access: .client, signIn: .passkey, tenant: .scoped)

        case .appleAppSiteAssociation:
            Endpoint(
                .get,
                [
                    .init("/.well-known/apple-app-site-association", operationID: "appleAppSiteAssociation"),
                    .init("/apple-app-site-association", operationID: "appleAppSiteAssociationRoot"),
                ], access: .open)
        case .assetLinks: .at(.get, "/.well-known/assetlinks.json", "assetLinks", access: .open)

        case .refreshToken: .at(.post, "/securetoken.googleapis.com/v1/token", "refreshToken", access: .client, tenant: .scoped)
        case .x509Certificates:
            .at(.get, "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", "x509Certificates", access: .open)
        case .jwks:
            Endpoint(
                .get,
                [
                    .init("/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com", operationID: "jwks"),
                    .init("/.well-known/jwks.json", operationID: "wellKnownJwks"),
                ], access: .open)
        case .createSessionCookie:
            Endpoint(
                .post,
                [
                    .init("\(Self.operatorV1):createSessionCookie", operationID: "createSessionCookie"),
                    .init("\(Self.tenantV1):createSessionCookie", operationID: "createSessionCookieInTenant"),
                ],
                access: .adminWrite, tenant: .scoped)
        case .sessionCookieCertificates: .at(.get, "\(IdentityToolkitPath.v3)/publicKeys", "sessionCookieCertificates", access: .open)
        case .sessionCookieJWKS: .at(.get, "\(IdentityToolkitPath.v1)/sessionCookiePublicKeys", "sessionCookieJWKS", access: .open)
        case .rotateKeys: .at(.post, "/flint/v1/projects/{project}/keys:rotate", "rotateKeys", access: .adminWrite)
        case .revokeKey: .at(.post, "/flint/v1/projects/{project}/keys:revoke", "revokeKey", access: .adminWrite)

        case .getConfig: .config(.get, "getConfig", access: .adminRead)
        case .updateConfig: .config(.patch, "updateConfig", access: .adminWrite)
        case .getProjectConfig:
            Endpoint(
                .get,
                [
                    .init("\(IdentityToolkitPath.v1)/projects", operationID: "getProjectConfig"),
                    .init("\(IdentityToolkitPath.v3)/getProjectConfig", operationID: "getProjectConfigV3"),
                ], access: .clientRead)
        case .createDefaultSupportedIdpConfig: .idpConfig(.post, .defaultSupported, item: false, "createDefaultSupportedIdpConfig")
        case .listDefaultSupportedIdpConfigs: .idpConfig(.get, .defaultSupported, item: false, "listDefaultSupportedIdpConfigs")
        case .getDefaultSupportedIdpConfig: .idpConfig(.get, .defaultSupported, item: true, "getDefaultSupportedIdpConfig")
        case .updateDefaultSupportedIdpConfig: .idpConfig(.patch, .defaultSupported, item: true, "updateDefaultSupportedIdpConfig")
        case .deleteDefaultSupportedIdpConfig: .idpConfig(.delete, .defaultSupported, item: true, "deleteDefaultSupportedIdpConfig")
        case .createOAuthIdpConfig: .idpConfig(.post, .oauth, item: false, "createOAuthIdpConfig")
        case .listOAuthIdpConfigs: .idpConfig(.get, .oauth, item: false, "listOAuthIdpConfigs")
        case .getOAuthIdpConfig: .idpConfig(.get, .oauth, item: true, "getOAuthIdpConfig")
        case .updateOAuthIdpConfig: .idpConfig(.patch, .oauth, item: true, "updateOAuthIdpConfig")
        case .deleteOAuthIdpConfig: .idpConfig(.delete, .oauth, item: true, "deleteOAuthIdpConfig")
        case .createInboundSamlConfig: .idpConfig(.post, .saml, item: false, "createInboundSamlConfig")
        case .listInboundSamlConfigs: .idpConfig(.get, .saml, item: false, "listInboundSamlConfigs")
        case .getInboundSamlConfig: .idpConfig(.get, .saml, item: true, "getInboundSamlConfig")
        case .updateInboundSamlConfig: .idpConfig(.patch, .saml, item: true, "updateInboundSamlConfig")
        case .deleteInboundSamlConfig: .idpConfig(.delete, .saml, item: true, "deleteInboundSamlConfig")

        case .createTenant: .tenants(.post, item: false, "createTenant")
        case .listTenants: .tenants(.get, item: false, "listTenants")
        case .getTenant: .tenants(.get, item: true, "getTenant")
        case .updateTenant: .tenants(.patch, item: true, "updateTenant")
        case .deleteTenant: .tenants(.delete, item: true, "deleteTenant")

        case .adminOutbox: .at(.get, "/flint/v1/projects/{project}/outbox", "adminOutbox", access: .adminRead)
        case .auditEvents: .at(.get, "/flint/v1/projects/{project}/auditEvents", "auditEvents", access: .adminRead, tenant: .handled)
        case .blockingDryRun: .at(.post, "/flint/v1/projects/{project}/blockingFunctions:dryRun", "blockingDryRun", access: .adminWrite)
        case .getAccountLock:
            .at(.get, "/flint/v1/projects/{project}/accounts/{localId}/lock", "getAccountLock", access: .adminRead, tenant: .scoped)
        case .unlockAccount:
            .at(.delete, "/flint/v1/projects/{project}/accounts/{localId}/lock", "unlockAccount", access: .adminWrite, tenant: .scoped)
        case .listWebhooks: .at(.get, Self.webhooks, "listWebhooks", access: .adminRead)
        case .createWebhook: .at(.post, Self.webhooks, "createWebhook", access: .adminWrite)
        case .getWebhook: .at(.get, "\(Self.webhooks)/{webhook}", "getWebhook", access: .adminRead)
        case .updateWebhook: .at(.patch, "\(Self.webhooks)/{webhook}", "updateWebhook", access: .adminWrite)
        case .deleteWebhook: .at(.delete, "\(Self.webhooks)/{webhook}", "deleteWebhook", access: .adminWrite)
        case .listWebhookDeliveries: .at(.get, "\(Self.webhooks)/{webhook}/deliveries", "listWebhookDeliveries", access: .adminRead)
        case .replayWebhookDelivery:
            .at(.post, "/flint/v1/projects/{project}/webhookDeliveries:replay", "replayWebhookDelivery", access: .adminWrite)
        case .listOwnSessions: .at(.post, "/flint/v1/accounts/sessions:list", "listOwnSessions", access: .clientRead, tenant: .scoped)
        case .endOwnSession: .at(.post, "/flint/v1/accounts/sessions:end", "endOwnSession", access: .client, tenant: .scoped)
        case .endOtherSessions: .at(.post, "/flint/v1/accounts/sessions:endOthers", "endOtherSessions", access: .client, tenant: .scoped)
        case .listUserSessions: .at(.get, Self.userSessions, "listUserSessions", access: .adminRead, tenant: .scoped)
        case .endUserSession: .at(.delete, "\(Self.userSessions)/{session}", "endUserSession", access: .adminWrite, tenant: .scoped)
        // The operator's bearer credential or `--metrics-token`.
        case .metrics: .at(.get, MetricsRoutes.path, "metrics", access: .adminRead)
        case .openapi: .at(.get, OpenAPIDocument.path, "openapi", access: .open)

        case .ready: .emulator(.get, "/", "ready")
        case .devVerificationCodes: .emulatorInTenants(.get, "verificationCodes", "devVerificationCodes")
        case .devOutbox: .emulator(.get, "\(Self.emulator)/outbox", "devOutbox")
        case .devOobCodes: .emulatorInTenants(.get, "oobCodes", "devOobCodes")
        case .devPushes: .emulator(.get, "\(Self.emulator)/pushes", "devPushes")
        case .devDeleteAccounts: .emulatorInTenants(.delete, "accounts", "devDeleteAccounts")
        case .devConfig: .emulator(.get, "\(Self.emulator)/config", "devConfig")
        case .devUpdateConfig: .emulator(.patch, "\(Self.emulator)/config", "devUpdateConfig")
        }
    }

    /// The identity-provider endpoints of `collection`, by what they do.
    static func idpConfigs(_ collection: ProjectConfig.IdpCollection) -> (create: Self, list: Self, get: Self, update: Self, delete: Self) {
        switch collection {
        case .defaultSupported:
            (
                .createDefaultSupportedIdpConfig, .listDefaultSupportedIdpConfigs, .getDefaultSupportedIdpConfig, .updateDefaultSupportedIdpConfig,
                .deleteDefaultSupportedIdpConfig
            )
        case .oauth: (.createOAuthIdpConfig, .listOAuthIdpConfigs, .getOAuthIdpConfig, .updateOAuthIdpConfig, .deleteOAuthIdpConfig)
        case .saml:
            (.createInboundSamlConfig, .listInboundSamlConfigs, .getInboundSamlConfig, .updateInboundSamlConfig, .deleteInboundSamlConfig)
        }
    }

    /// The Admin SDKs' project paths: `/identitytoolkit.googleapis.com/v1/projects/{project}`.
    private static let operatorV1 = "\(IdentityToolkitPath.v1)/projects/{project}"
    /// The Admin SDKs' paths in a tenant (`tenant_mgt.auth_for_tenant`): `…/v1/projects/{project}/tenants/{tenant}`.
    static let tenantV1 = "\(IdentityToolkitPath.v1)/projects/{project}/tenants/{tenant}"
    /// The v2 account paths (MFA, passkeys).
    private static let v2Accounts = "\(IdentityToolkitPath.v2)/accounts"
    /// The event webhook subscriptions.
    private static let webhooks = "/flint/v1/projects/{project}/webhooks"
    /// An account's sessions, for operators.
    private static let userSessions = "/flint/v1/projects/{project}/accounts/{localId}/sessions"
    /// The emulator's project paths.
    private static let emulator = "/emulator/v1/projects/{project}"
}

extension Endpoint {
    /// An endpoint at one path.
    static func at(
        _ method: HTTPRequest.Method, _ path: String, _ operationID: String, access: EndpointAccess, signIn: SignInMethod? = nil,
        tenant: TenantHandling = .refused
    ) -> Endpoint {
        Endpoint(method, [Route(path, operationID: operationID)], access: access, signIn: signIn, tenant: tenant)
    }

    /// An Identity Toolkit endpoint at its v1 path (operation `operationID`) and the aliases Firebase serves it at: its
    /// v3 `relyingparty/` name (operation `…V3`) and the Admin SDKs' path under `v1/projects/{project}/` (`…Operator`),
    /// and for an endpoint that serves tenants, unless `operatorInTenants` is false (Identity Platform has no such
    /// path), under `v1/projects/{project}/tenants/{tenant}/` (`…InTenant`).
    static func identityToolkit(
        _ method: HTTPRequest.Method = .post, v1: String, v3: String? = nil, operator operatorPath: String? = nil, _ operationID: String,
        access: EndpointAccess = .client, signIn: SignInMethod? = nil, tenant: TenantHandling = .refused, operatorInTenants: Bool = true
    ) -> Endpoint {
        var routes = [Route("\(IdentityToolkitPath.v1)/\(v1)", operationID: operationID)]
        if let v3 { routes.append(Route("\(IdentityToolkitPath.v3)/\(v3)", operationID: "\(operationID)V3")) }
        if let operatorPath {
            routes.append(Route("\(IdentityToolkitPath.v1)/projects/{project}/\(operatorPath)", operationID: "\(operationID)Operator"))
            // An endpoint that serves tenants serves the Admin SDKs in a tenant too.
            if tenant == .scoped && operatorInTenants {
                routes.append(Route("\(APIEndpoint.tenantV1)/\(operatorPath)", operationID: "\(operationID)InTenant"))
            }
        }
        return Endpoint(method, routes, access: access, signIn: signIn, tenant: tenant)
    }

    /// The project config, at the admin v2 path and its v2 alias (operation `…V2`).
    static func config(_ method: HTTPRequest.Method, _ operationID: String, access: EndpointAccess) -> Endpoint {
        Endpoint(
            method,
            [
                Route("/identitytoolkit.googleapis.com/admin/v2/projects/{project}/config", operationID: operationID),
                Route("\(IdentityToolkitPath.v2)/projects/{project}/config", operationID: "\(operationID)V2"),
            ], access: access)
    }

    /// An identity-provider resource endpoint: the collection (`item: false`) or one provider in it, the project's and,
    /// at its alias (operation `…Tenant`), a tenant's; the handler reads the tenant from the path (``TenantHandling/handled``).
    static func idpConfig(_ method: HTTPRequest.Method, _ collection: ProjectConfig.IdpCollection, item: Bool, _ operationID: String) -> Endpoint {
        let item = item ? "/{idp}" : ""
        let project = "\(IdentityToolkitPath.v2)/projects/{project}"
        return Endpoint(
            method,
            [
                Route("\(project)/\(collection.rawValue)\(item)", operationID: operationID),
                Route("\(project)/tenants/{tenant}/\(collection.rawValue)\(item)", operationID: "\(operationID)Tenant"),
            ], access: method == .get ? .adminRead : .adminWrite, tenant: .handled)
    }

    /// A tenant resource endpoint: the collection (`item: false`) or one tenant in it.
    static func tenants(_ method: HTTPRequest.Method, item: Bool, _ operationID: String) -> Endpoint {
        let base = "\(IdentityToolkitPath.v2)/projects/{project}/tenants"
        return .at(method, item ? "\(base)/{tenant}" : base, operationID, access: method == .get ? .adminRead : .adminWrite, tenant: .handled)
    }

    /// A path of dev mode's emulator, open to anyone.
    static func emulator(_ method: HTTPRequest.Method, _ path: String, _ operationID: String) -> Endpoint {
        Endpoint(method, [Route(path, operationID: operationID)], access: .open, devModeOnly: true)
    }

    /// An emulator path under the project (`/emulator/v1/projects/{project}/<path>`) and in a tenant
    /// (`…/tenants/{tenant}/<path>`, operation `…InTenant`).
    static func emulatorInTenants(_ method: HTTPRequest.Method, _ path: String, _ operationID: String) -> Endpoint {
        let project = "/emulator/v1/projects/{project}"
        return Endpoint(
            method,
            [
                Route("\(project)/\(path)", operationID: operationID),
                Route("\(project)/tenants/{tenant}/\(path)", operationID: "\(operationID)InTenant"),
            ],
            access: .open, devModeOnly: true)
    }

    /// An operator endpoint of the Admin SDKs at `v1/projects/{project}/<path>` and in a tenant at
    /// `v1/projects/{project}/tenants/{tenant}/<path>` (operation `…InTenant`), served in the tenant a request names.
    static func tenantOperator(_ method: HTTPRequest.Method, _ path: String, _ operationID: String, access: EndpointAccess) -> Endpoint {
        Endpoint(
            method,
            [
                Route("\(IdentityToolkitPath.v1)/projects/{project}/\(path)", operationID: operationID),
                Route("\(APIEndpoint.tenantV1)/\(path)", operationID: "\(operationID)InTenant"),
            ],
            access: access, tenant: .scoped)
    }
}
