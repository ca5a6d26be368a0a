/// What an event webhook reports. Stored as its raw text in a subscription's `events` and a delivery's `event_type`;
/// open-ended like ``AuditKind``.
public struct WebhookEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The text the payload's `type` carries.
    public let rawValue: String

    /// A type from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let userCreated = WebhookEventType(rawValue: "user.created")
    public static let userDeleted = WebhookEventType(rawValue: "user.deleted")
    public static let userDisabled = WebhookEventType(rawValue: "user.disabled")
    public static let userEnabled = WebhookEventType(rawValue: "user.enabled")
    public static let userSignedIn = WebhookEventType(rawValue: "user.signed_in")
    public static let mfaEnrolled = WebhookEventType(rawValue: "mfa.enrolled")
    public static let passwordChanged = WebhookEventType(rawValue: "password.changed")
    public static let emailChanged = WebhookEventType(rawValue: "email.changed")

    /// Every type a subscription may name, in the order above.
    public static let all: [WebhookEventType] = [
        userCreated, userDeleted, userDisabled, userEnabled, userSignedIn, mfaEnrolled, passwordChanged, emailChanged,
    ]

    public var description: String { rawValue }
}
