package import FlintCore
import HTTPTypes
import Testing

extension Path {
    package static let auditEvents = "/flint/v1/projects/\(project)/auditEvents"
}

extension API {
    /// The audit events (newest first) of one page of `GET auditEvents?query`, as the operator reads them.
    package func auditEvents(_ query: String = "") async throws -> [JSONValue] {
        let reply = try await admin(.get, Path.auditEvents + (query.isEmpty ? "" : "?" + query))
        #expect(reply.status == .ok, "\(reply.text)")
        return reply["auditEvents"]?.arrayValue ?? []
    }

    /// The kinds of the events of `uid`, oldest first.
    package func auditKinds(of uid: String) async throws -> [String] {
        try await auditEvents("uid=\(uid)&pageSize=1000").reversed().compactMap { $0["kind"]?.stringValue }
    }
}
