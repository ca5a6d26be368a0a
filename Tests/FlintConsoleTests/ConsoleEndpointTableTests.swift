import FlintServerTestSupport
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's pages in the endpoint table")
struct ConsoleEndpointTableTests {
    @Test("a node serving the console serves exactly the table's routes, the API's and the console's, dev mode's only in dev mode")
    func matchesTheRouter() async throws {
        try await expectRouterServes(APIEndpoint.allCases.map(\.endpoint) + ConsoleEndpoint.allCases.map(\.endpoint), modules: [ConsoleModule()])
    }

    @Test("the console's pages are under /console, of access console (a GET reads, a form writes), no sign-in, outside the OpenAPI document")
    func declarations() {
        for endpoint in ConsoleEndpoint.allCases.map(\.endpoint) {
            #expect(endpoint.access == .console && endpoint.signIn == nil, "\(endpoint.routes)")
            #expect(endpoint.onlyReads == (endpoint.method == .get), "\(endpoint.routes)")
            for route in endpoint.routes { #expect(route.operationID == nil && route.path.hasPrefix(ConsoleEndpoint.prefix), "\(route.path)") }
        }
    }
}
