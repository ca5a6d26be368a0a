import FlintCore
import FlintServerTestSupport
import FlintStore
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import FlintServer

/// docs/openapi.json, as the repository holds it.
private func documentFile() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("docs/openapi.json"), encoding: .utf8)
}

/// The operations a document declares, as `METHOD path`.
private func documentedOperations(_ document: JSONValue) throws -> [String: JSONValue] {
    let paths = try #require(document["paths"]?.objectValue)
    var operations: [String: JSONValue] = [:]
    for (path, item) in paths {
        for (method, operation) in try #require(item.objectValue) { operations["\(method.uppercased()) \(path)"] = operation }
    }
    return operations
}

/// The routes a node's router serves, as `METHOD path`.
private func servedRoutes(devMode: Bool) async throws -> Set<String> {
    let node = try await TestNode.make { $0.devMode = devMode }
    let routes = try buildRouter(flows: node.server.flows, modules: node.server.modules).routes.map { "\($0.method.rawValue) \($0.path.description)" }
    try await node.store.close()
    return Set(routes)
}

@Suite("The OpenAPI document")
struct OpenAPITests {
    @Test("the endpoint table and the document name the same operations at the same methods and paths, both ways")
    func matchesTheTable() throws {
        let operations = try documentedOperations(try JSONValue(parsing: Array(try documentFile().utf8)))
        var declared: [String: String] = [:]
        for endpoint in APIEndpoint.allCases.map(\.endpoint) {
            for route in endpoint.routes {
                let name = "\(endpoint.method.rawValue) \(route.path)"
                let id = try #require(route.operationID, "\(name) names no operation")
                declared[name] = id
                guard let operation = operations[name] else { continue }
                let dev = operation["tags"]?.arrayValue?.contains(.string("dev")) == true
                #expect(dev == endpoint.devModeOnly, "\(name): the dev tag marks exactly dev mode's endpoints")
                #expect(security(operation) == expectedSecurity(endpoint, path: route.path), "\(name): its security is its access")
            }
        }
        #expect(declared == operations.compactMapValues { $0["operationId"]?.stringValue })
    }

    /// The security schemes an operation names.
    private func security(_ operation: JSONValue) -> Set<String> {
        Set((operation["security"]?.arrayValue ?? []).flatMap { $0.objectValue.map { Array($0.keys) } ?? [] })
    }

    /// What the document says an endpoint's access takes: the operator's bearer credential for admin endpoints and the
    /// Admin SDKs' project paths, an API key (query or header) or the operator's credential for the rest of the client
    /// API, nothing for open ones.
    private func expectedSecurity(_ endpoint: Endpoint, path: String) -> Set<String> {
        switch endpoint.access {
        case .open, .console: []
        case .adminRead, .adminWrite: ["adminBearer"]
        case .client, .clientRead:
            path.hasPrefix("\(IdentityToolkitPath.v1)/projects/{project}/") ? ["adminBearer"] : ["apiKeyQuery", "apiKeyHeader", "adminBearer"]
        }
    }

    @Test("in production mode only the dev operations (the emulator's paths and its readiness answer) are not served")
    func productionMode() async throws {
        let operations = try documentedOperations(try JSONValue(parsing: Array(try documentFile().utf8)))
        let served = try await servedRoutes(devMode: false)
        let devOnly = Set(operations.filter { $0.value["tags"]?.arrayValue?.contains(.string("dev")) == true }.keys)
        // The hosted handler's and the iframe's emulator paths are where FirebaseAuth (`useEmulator`) and the JS SDK
        // (`connectAuthEmulator`) open them, which apps use against
        // any Flint: served in production too.
        let emulator = Set(
            operations.keys.filter {
                $0.split(separator: " ").last?.hasPrefix("/emulator/") == true && $0 != "GET /emulator/auth/handler"
                    && $0 != "GET /emulator/auth/iframe"
            })
        #expect(devOnly == emulator.union(["GET /"]), "the dev tag marks exactly the emulator's operations")
        #expect(emulator.count == 10)
        #expect(Set(operations.keys).subtracting(served) == devOnly)
        #expect(served.isSubset(of: Set(operations.keys)))
    }

    @Test("every operation has a unique operationId, a summary and Firebase's error answer as its default")
    func operationsAreComplete() throws {
        let operations = try documentedOperations(try JSONValue(parsing: Array(try documentFile().utf8)))
        var ids: Set<String> = []
        for (name, operation) in operations {
            let id = try #require(operation["operationId"]?.stringValue, "\(name)")
            #expect(ids.insert(id).inserted, "operationId \(id) is used twice")
            #expect(operation["summary"]?.stringValue?.isEmpty == false, "\(name)")
            #expect(operation["responses"]?["default"]?["$ref"]?.stringValue == "#/components/responses/Error", "\(name)")
        }
    }

    @Test("the audit event kinds the document allows, in answers and in the listing's filter, are every kind the store records")
    func auditKinds() throws {
        let document = try JSONValue(parsing: Array(try documentFile().utf8))
        let kinds = AuditKind.all.map { JSONValue.string($0.rawValue) }
        #expect(document["components"]?["schemas"]?["AuditEvent"]?["properties"]?["kind"]?["enum"]?.arrayValue == kinds)
        let parameters = document["paths"]?["/flint/v1/projects/{project}/auditEvents"]?["get"]?["parameters"]?.arrayValue ?? []
        let filter = try #require(parameters.first { $0["name"] == "kind" })
        #expect(filter["schema"]?["enum"]?.arrayValue == kinds)
    }

    @Test("GET /openapi.json serves docs/openapi.json (scripts/openapi-embed was run)")
    func servedDocument() async throws {
        try await withFlint { api in
            let reply = try await api.call(.get, "/openapi.json")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "application/json; charset=UTF-8")
            let file = try documentFile()
            let documented = try JSONDecoder().decode(JSONValue.self, from: Data(file.utf8))
            #expect(reply.json == documented, "run scripts/openapi-embed")
            #expect(reply.json["openapi"]?.stringValue == "3.1.0")
        }
    }
}
