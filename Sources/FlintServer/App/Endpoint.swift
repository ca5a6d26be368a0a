package import HTTPTypes

/// What an endpoint is, declared once: the paths it is served at (each with its OpenAPI operation), who may call it,
/// and the sign-in method it counts as. The router registers it from these facts, ``RequestContextMiddleware`` binds it to
/// each request it answers (for the metrics, the audit log and the read-only rule), and `OpenAPITests` compares the
/// table with `docs/openapi.json` both ways. Flint's API is ``APIEndpoint``; the console declares its pages the same way.
package struct Endpoint: Sendable, Equatable {
    /// One path an endpoint is served at, and the operation `docs/openapi.json` describes it as (`nil` for the
    /// console's pages, which the document does not describe).
    package struct Route: Sendable, Equatable {
        /// The full path, host first, as the router matches it (`/identitytoolkit.googleapis.com/v1/accounts:signUp`).
        package let path: String
        /// The `operationId` of the document's operation at this path and method.
        package let operationID: String?

        package init(_ path: String, operationID: String?) {
            (self.path, self.operationID) = (path, operationID)
        }
    }

    /// The HTTP method.
    package let method: HTTPRequest.Method
    /// Every path it is served at: the first is its own, the rest are aliases Firebase serves it at too.
    package let routes: [Route]
    /// Who may call it, and whether it only reads.
    package let access: EndpointAccess
    /// The sign-in method its answers count as, if it is a sign-in (metrics and the audit's `SIGN_IN_FAILED`).
    package let signIn: SignInMethod?
    /// Whether only dev mode serves it (the emulator's paths).
    package let devModeOnly: Bool
    /// Who answers a `tenantId` the request names (``TenantMiddleware``, unless the handler does).
    package let tenant: TenantHandling

    package init(
        _ method: HTTPRequest.Method, _ routes: [Route], access: EndpointAccess, signIn: SignInMethod? = nil, devModeOnly: Bool = false,
        tenant: TenantHandling = .refused
    ) {
        (self.method, self.routes, self.access, self.signIn, self.devModeOnly) = (method, routes, access, signIn, devModeOnly)
        self.tenant = tenant
    }

    /// Whether it only reads: what a read-scoped admin credential may call. A `GET` always reads (the table's test
    /// holds every one to it); a `POST` reads only when its access says so (account lookups and queries,
    /// `createAuthUri`).
    package var onlyReads: Bool {
        switch access {
        case .clientRead, .adminRead: true
        case .client, .adminWrite: false
        case .open, .console: Self.reads(method)
        }
    }

    /// Whether a read-scoped admin credential may make a request with `method` to `endpoint` (`nil`: no route
    /// matched, and only a `GET` or `HEAD` is let through, to its 404).
    package static func readScopeAllows(_ method: HTTPRequest.Method, to endpoint: Endpoint?) -> Bool {
        endpoint?.onlyReads ?? reads(method)
    }

    private static func reads(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head }
}

/// Who may call an endpoint. The handlers check the caller (``FlintRequestContext/requireClient()``,
/// ``FlintRequestContext/requireAdmin()``, the console's session); the table says what they check, and whether the
/// endpoint only reads, which the caller middleware holds a read-scoped admin credential to.
package enum EndpointAccess: Sendable, Equatable {
    /// No credential: pages, key sets, the document, dev mode's emulator paths. A `GET` reads; anything else writes.
    case open
    /// A client with an API key (or the operator, whose Admin SDKs call the same endpoints), changing something.
    case client
    /// A client with an API key (or the operator), only reading.
    case clientRead
    /// The operator only, changing something.
    case adminWrite
    /// The operator only, only reading.
    case adminRead
    /// The web console's pages and forms, behind its own sign-in: a `GET` reads; a form writes.
    case console
}

/// What an endpoint does with the `tenantId` a request names (a body member, `tenant_id` too, or a query parameter).
package enum TenantHandling: Sendable, Equatable {
    /// ``TenantMiddleware`` refuses a request naming a tenant before its handler runs: `TENANT_NOT_FOUND` for an
    /// unknown one, `UNSUPPORTED_TENANT_OPERATION` for a known one until the endpoint serves tenants' users (issue 32's
    /// next step). A tenant request is never answered from the project's own users.
    case refused
    /// The handler reads the tenant itself (what needs only the tenant resource: its password policy, its reCAPTCHA
    /// config; the tenant admin resources, whose bodies name none).
    case handled
    /// The endpoint serves a tenant's users: ``TenantMiddleware`` resolves the tenant the request names (its path's
    /// `{tenant}`, else `tenantId`) into the request's ``TenantScope`` (`TENANT_NOT_FOUND`, `TENANT_ID_MISMATCH`,
    /// `PROJECT_DISABLED`), and its flow runs in it from end to end.
    case scoped
}

/// The sign-in method an endpoint's answers count as: the `method` label of `flint_sign_ins_total` and the `method` of
/// a `SIGN_IN_FAILED` audit event, so the metrics and the audit log name the same endpoints the same way. `idp` is
/// federated sign-in (Apple, Google, OIDC), whatever the provider.
package enum SignInMethod: String, Sendable, CaseIterable {
    case password, phone, emailLink, signUp, secondFactor, passkey, custom, idp
}

/// The endpoints a router serves, by method and path template, for ``RequestContextMiddleware``.
package struct EndpointTable: Sendable {
    private struct Key: Hashable {
        let method: HTTPRequest.Method
        let path: String
    }

    private let endpoints: [Key: Endpoint]

    /// A table of `endpoints`; a path declared twice for one method keeps its first declaration.
    package init(_ endpoints: [Endpoint]) {
        var table: [Key: Endpoint] = [:]
        for endpoint in endpoints {
            for route in endpoint.routes where table[Key(method: endpoint.method, path: route.path)] == nil {
                table[Key(method: endpoint.method, path: route.path)] = endpoint
            }
        }
        self.endpoints = table
    }

    /// The endpoint a request with `method` matched at the route template `path`, if any.
    package subscript(method: HTTPRequest.Method, path: String?) -> Endpoint? {
        guard let path else { return nil }
        return endpoints[Key(method: method, path: path)]
    }
}
