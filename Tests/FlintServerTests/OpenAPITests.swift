import FlintCore
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
    // The web console's HTML pages (`/console/…`) are not part of the API the document describes.
    let routes = buildRouter(flows: node.server.flows).routes.filter { !$0.path.description.hasPrefix("/console") }
        .map { "\($0.method.rawValue) \($0.path.description)" }
    try await node.store.close()
    return Set(routes)
}

@Suite("The OpenAPI document")
struct OpenAPITests {
    @Test("every route the router serves is documented, and every documented operation is served (dev mode: all of them)")
    func matchesTheRouter() async throws {
        let document = try JSONValue(parsing: Array(try documentFile().utf8))
        let documented = Set(try documentedOperations(document).keys)
        let served = try await servedRoutes(devMode: true)
        #expect(served.subtracting(documented).sorted() == [], "routes missing from docs/openapi.json")
        #expect(documented.subtracting(served).sorted() == [], "documented operations no route serves")
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
        #expect(emulator.count == 7)
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
