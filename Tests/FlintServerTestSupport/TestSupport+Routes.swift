import FlintStore
import HTTPTypes
import Hummingbird
package import Testing

@testable package import FlintServer

/// The routes of `endpoints`, as `METHOD path`.
package func routes(_ endpoints: [Endpoint]) -> [String] {
    endpoints.flatMap { endpoint in endpoint.routes.map { "\(endpoint.method.rawValue) \($0.path)" } }
}

/// Expects the router of a node serving `modules` to serve exactly the routes of `declared`: all of them in dev mode,
/// all but dev mode's in production, each once.
package func expectRouterServes(_ declared: [Endpoint], modules: [any ServerModule], sourceLocation: SourceLocation = #_sourceLocation) async throws {
    #expect(Set(routes(declared)).count == routes(declared).count, "a route is declared twice", sourceLocation: sourceLocation)
    for devMode in [true, false] {
        let node = try await TestNode.make(modules: modules) { $0.devMode = devMode }
        let served = try buildRouter(flows: node.server.flows, modules: node.server.modules).routes.map {
            "\($0.method.rawValue) \($0.path.description)"
        }
        try await node.store.close()
        let expected = routes(declared.filter { devMode || !$0.devModeOnly })
        #expect(
            Set(served).subtracting(expected).sorted() == [], "served but not in the table (dev mode: \(devMode))", sourceLocation: sourceLocation)
        #expect(
            Set(expected).subtracting(served).sorted() == [], "in the table but not served (dev mode: \(devMode))", sourceLocation: sourceLocation)
        #expect(served.count == expected.count, sourceLocation: sourceLocation)
    }
}
