import FlintCore
import FlintTesting
import Testing

@testable import FlintStore

@Suite("Audit origin: what one caller notes labels only its own events")
struct AuditOriginTests {
    @Test("outside a request the process-wide origin keeps no account or tenant noted on it; a request's origin keeps both")
    func notesOutsideARequest() {
        AuditOrigin.current.notes.tenant = TenantID(rawValue: "acme-1a2b3")
        AuditOrigin.current.notes.subject = "u1"
        #expect(AuditOrigin.current.notes.tenant == nil && AuditOrigin.current.notes.subject == nil)
        #expect(AuditOrigin.current.event(.accountCreated, uid: "u2", at: 1_000).detail["tenantId"] == nil)

        let origin = AuditOrigin(ip: "203.0.113.9")
        AuditOrigin.$current.withValue(origin) {
            AuditOrigin.current.notes.tenant = TenantID(rawValue: "acme-1a2b3")
            AuditOrigin.current.notes.subject = "u1"
        }
        #expect(origin.notes.tenant == TenantID(rawValue: "acme-1a2b3") && origin.notes.subject == "u1", "a request's notes are its own")
        #expect(origin.event(.accountCreated, uid: nil, at: 1_000).uid == "u1")
    }
}
