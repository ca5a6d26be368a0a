public import FlintCore
import Synchronization

/// One security event of the audit log. It never holds codes, tokens, passwords or links.
public struct AuditEvent: Sendable, Equatable {
    /// The store's sequence number (newer events have larger ones); `nil` before the event is stored.
    public var id: Int64?
    /// When it happened (ms since the epoch).
    public var at: Instant
    public var kind: AuditKind
    /// The account concerned, when there is one.
    public var uid: String?
    /// The client address of the request, when known.
    public var ip: String?
    /// The credential's name when an operator acted (`admin`), or the tool (`cli`, `config-file`).
    public var actor: String?
    /// What else is worth knowing: the sign-in method, the limit, the update mask…
    public var detail: [String: JSONValue]

    /// An event.
    public init(
        id: Int64? = nil, at: Instant, kind: AuditKind, uid: String? = nil, ip: String? = nil, actor: String? = nil, detail: [String: JSONValue] = [:]
    ) {
        (self.id, self.at, self.kind, self.uid, self.ip, self.actor, self.detail) = (id, at, kind, uid, ip, actor, detail)
    }

    /// The tenant the event happened in: the one its detail names (`tenantId`), else the default tenant (the project's).
    public var tenant: TenantID { TenantID(rawValue: detail["tenantId"]?.stringValue ?? "") }
}

/// Where the request in progress comes from, for the events it records: bound for the duration of each request by
/// the server, and re-bound by the store around the write closures it runs on its own tasks, so a transaction
/// records its events with the request's address and credential without passing them along.
public struct AuditOrigin: Sendable {
    /// The client address.
    public var ip: String?
    /// The credential's name when an operator acts (`admin`), or the tool (`cli`).
    public var actor: String?
    /// The client's `User-Agent`, when a request sent one (told to blocking functions, not recorded in events).
    public var userAgent: String?
    /// The client's `X-Firebase-Locale`, when a request sent one (told to blocking functions, not recorded in events).
    public var locale: String?
    /// The client's `X-Client-Version` (the Firebase SDKs name themselves there), for a session's device name.
    public var clientVersion: String?
    /// What the request noted about the account it concerns (for events recorded once it answered).
    public let notes: AuditNotes
    /// The tenant the request runs in (``TenantID/default`` unless the server's tenant middleware bound another): every
    /// user-keyed store call of its flows names it. Carried into write closures with the rest of the origin, so a
    /// transaction the store runs on its own task stays in the request's tenant.
    public var tenant: TenantID = .default
    /// For a request in another tenant than the default one, the config its flows read: the project's, with that
    /// tenant's sign-in switches, second factors, SMS regions and password policy (`nil`: the project's own).
    package var tenantSettings: ProjectConfig?

    /// An origin with fresh notes.
    public init(ip: String? = nil, actor: String? = nil, userAgent: String? = nil, locale: String? = nil) {
        (self.ip, self.actor, self.userAgent, self.locale, self.notes) = (ip, actor, userAgent, locale, AuditNotes())
    }

    /// The origin of the request in progress (no address, no actor outside a request). Outside a request it is one value
    /// for the whole process, so its notes keep nothing (``AuditNotes/discarding``): a tenant or account noted by one
    /// caller outside a request must not label another's events.
    @TaskLocal public static var current = AuditOrigin(notes: .discarding)

    private init(notes: AuditNotes) {
        self.notes = notes
    }

    /// An event of the request in progress: its address and actor, the account noted unless `uid` is given, and the
    /// tenant it ran in (`tenantId` in the detail, for any other tenant than the default one).
    public func event(_ kind: AuditKind, uid: String?, at: Instant, _ detail: [String: JSONValue] = [:]) -> AuditEvent {
        var detail = detail
        if let tenant = notes.tenant, !tenant.isDefault { detail["tenantId"] = .string(tenant.rawValue) }
        return AuditEvent(at: at, kind: kind, uid: uid ?? notes.subject, ip: ip, actor: actor, detail: detail)
    }
}

/// A request's notes for its audit events: the account it turned out to concern, set by the flow once known, and the
/// tenant it runs in, set once it is known (the events recorded after the answer name it too).
public final class AuditNotes: Sendable {
    private let state = Mutex<(subject: String?, tenant: TenantID?)>((nil, nil))
    /// Whether what is noted is dropped.
    private let discards: Bool

    /// Empty notes.
    public init() { discards = false }

    private init(discarding: Bool) { discards = discarding }

    /// Notes that keep nothing: those of the origin outside any request, which the whole process shares.
    public static let discarding = AuditNotes(discarding: true)

    /// The account the request concerns, once a flow noted it.
    public var subject: String? {
        get { state.withLock { $0.subject } }
        set { if !discards { state.withLock { $0.subject = newValue } } }
    }

    /// The tenant the request runs in, once the server resolved it.
    public var tenant: TenantID? {
        get { state.withLock { $0.tenant } }
        set { if !discards { state.withLock { $0.tenant = newValue } } }
    }
}
