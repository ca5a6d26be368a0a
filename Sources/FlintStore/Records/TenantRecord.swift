public import FlintCore

/// One of the project's tenants as stored: its ID (the primary key every lookup and listing goes by), its
/// document (Identity Platform's `Tenant` fields, JSON text) and when it was created.
public struct TenantRecord: Sendable, Equatable {
    public var id: String
    public var document: String
    public var createdAt: Instant

    public init(id: String, document: String, createdAt: Instant) {
        (self.id, self.document, self.createdAt) = (id, document, createdAt)
    }
}
