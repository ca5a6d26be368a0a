import FlintCore
import FlintServerTestSupport
import FlintStore
import Foundation
import Hummingbird
import Testing

@testable import FlintServer

/// The README's "What is served" table, as the repository holds it.
private func servedTable() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "\n## What is served\n"), "README.md has no \"What is served\" section")
    let rest = readme[start.upperBound...]
    let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
}

/// The paths a text names in code spans: `/…` in full, or `.../…` after a host the reader knows; a leading method
/// and a query are dropped.
func documentedPaths(in text: String) -> [String] {
    var paths: [String] = []
    for (index, span) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
        var path = Substring(span)
        if let space = path.firstIndex(of: " "), path[..<space].allSatisfy(\.isUppercase) { path = path[path.index(after: space)...] }
        if let query = path.firstIndex(of: "?") { path = path[..<query] }
        guard path.hasPrefix("/") || path.hasPrefix(".../"), !path.contains(" ") else { continue }
        paths.append(String(path))
    }
    return paths
}

/// A path with its parameters (`{p}`, `{id}`, `:name`, `{name}` …) made one wildcard segment part, for comparing the
/// README's spelling with the router's.
func pathShape(_ path: String) -> String {
    var shape = ""
    var inParameter = false
    var previous: Character = "/"
    for character in path {
        if character == "{" {
            inParameter = true
        } else if character == "}" {
            inParameter = false
            shape.append("*")
        } else if character == ":" && previous == "/" {
            inParameter = true
        } else if inParameter && character == "/" && !shape.hasSuffix("*") {
            inParameter = false
            shape.append("*/")
        } else if !inParameter {
            shape.append(character)
        }
        previous = character
    }
    if inParameter { shape.append("*") }
    return shape
}

@Suite("The README's routes")
struct DocumentedRoutesTests {
    @Test("every path the README's \"What is served\" table names is served by the router (dev mode)")
    func everyDocumentedPathIsServed() async throws {
        let node = try await TestNode.make { $0.devMode = true }
        let served = try buildRouter(flows: node.server.flows, modules: node.server.modules).routes.map { pathShape($0.path.description) }
        try await node.store.close()
        let documented = documentedPaths(in: try servedTable())
        #expect(documented.count > 60, "the table was read: \(documented.count) paths")
        let unserved = documented.filter { path in
            let shape = pathShape(path)
            if shape.hasPrefix(".../") { return !served.contains { $0.hasSuffix(shape.dropFirst(3)) } }
            return !served.contains(shape)
        }
        #expect(unserved == [], "documented in README.md but not served")
    }

    @Test("the table's code spans are read as paths (method and query dropped), and both spellings of a parameter compare equal")
    func readsPaths() {
        #expect(
            documentedPaths(in: "| x | `POST .../v1/accounts:signUp?x=1`, `GET /flint/v1/projects/{p}/nothing` |") == [
                ".../v1/accounts:signUp", "/flint/v1/projects/{p}/nothing",
            ])
        #expect(pathShape("/flint/v1/projects/{p}/outbox") == pathShape("/flint/v1/projects/:project/outbox"))
        #expect(
            pathShape("/identitytoolkit.googleapis.com/v1/projects/{p}:createSessionCookie")
                == "/identitytoolkit.googleapis.com/v1/projects/*:createSessionCookie")
    }
}
