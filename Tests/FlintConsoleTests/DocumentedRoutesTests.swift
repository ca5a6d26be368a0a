import FlintConsole
import FlintServer
import FlintServerTestSupport
import Foundation
import HTTPTypes
import Testing

/// The routes of the endpoint tables, the API's and the console's (which `ConsoleEndpointTableTests` holds to the
/// router), as `(method, path)`.
private let servedRoutes: [(method: String, path: String)] = (APIEndpoint.allCases.map(\.endpoint) + ConsoleEndpoint.allCases.map(\.endpoint))
    .flatMap { endpoint in endpoint.routes.map { (method: endpoint.method.rawValue, path: $0.path) } }

/// The documented routes no served route matches.
private func unserved(_ routes: [DocumentedRoute]) -> [DocumentedRoute] {
    routes.filter { route in !servedRoutes.contains { route.isServed(by: $0) } }
}

@Suite("What the docs name: routes and links")
struct DocumentedRoutesTests {
    @Test("every route README.md and docs/ name (design notes aside) is in the endpoint table, with its method when one is written before it")
    func everyDocumentedRouteIsServed() throws {
        let pages = try Documentation.pages().filter { !$0.isDesignNote }
        let routes = pages.flatMap(\.routes)
        #expect(routes.count > 150, "the docs were read: \(routes.count) routes in \(pages.count) pages")
        for route in unserved(routes) {
            Issue.record("\(route.name): \(route.method.map { $0 + " " } ?? "")no such route is served")
        }
    }

    @Test("every relative link and image of README.md and docs/ names a file that exists, and a heading its page has")
    func everyRelativeLinkResolves() throws {
        let pages = try Documentation.pages()
        let links = pages.flatMap { page in page.links.map { (page, $0) } }
        #expect(links.count > 50, "the docs were read: \(links.count) links")
        for (page, link) in links {
            if let problem = page.problem(withLink: link.text, root: Documentation.root) { Issue.record("\(link.page):\(link.line): \(problem)") }
        }
    }

    @Test(
        "a path is found in prose, code spans and code blocks, in Flint URLs and elisions, and matched with its placeholders",
        arguments: [
            ("`GET /flint/v1/projects/{p}/outbox`", true),
            ("curl -s \"$B/emulator/v1/projects/demo-flint/outbox\"", true),
            ("`POST .../v1/accounts:signUp?key=1`", true),
            ("`DELETE …/sessions/{sessionId}`", true),
            ("`GET v2/passwordPolicy`", true),
            ("<http://127.0.0.1:9099/console>", true),
            ("`/www.googleapis.com/identitytoolkit/v3/relyingparty/...`", true),
            ("`/identitytoolkit.googleapis.com/v1/projects/my-project:createSessionCookie`", true),
            ("`GET /flint/v1/projects/{p}/nothing`", false),
            ("`DELETE /flint/v1/projects/{p}/outbox`", false),
            ("`/flint/v1/{p}/projects/outbox`", false),
            ("`/flint/v1/projects/{p}/keys:{kid}`", false),
            ("`.../v1/accounts:signOut`", false),
        ])
    func findsAndMatchesPaths(text: String, served: Bool) {
        let routes = DocumentationPage(path: "docs/x.md", text: "Some prose,\n\(text)\n").routes
        #expect(routes.count == 1, "\(routes.map(\.name))")
        #expect(unserved(routes).isEmpty == served)
        #expect(routes.first?.name.line == 2)
    }

    @Test("Google's, Apple's and other providers' addresses are not taken for Flint's routes")
    func othersPathsAreNotRoutes() {
        let text = """
            Google's `/oauth2/v3/certs`, `/v1/userinfo`; `https://limited.facebook.com/.well-known/oauth/openid/jwks/`,
            `https://identitytoolkit.googleapis.com/v2`, `games/v1/players/me`, `flint.sessions`.
            """
        #expect(DocumentationPage(path: "docs/x.md", text: text).routes.isEmpty)
    }

    @Test("a link to a missing file or heading is reported with its line; links to files, headings and URLs that exist are not")
    func checksLinks() throws {
        let page = DocumentationPage(
            path: "docs/x.md",
            text: """
                # Title
                ## `flint serve` (the flags)
                See [serving](serving.md#flags), [the top](../README.md#documentation), [here](#flint-serve-the-flags),
                ![a picture](console/users.png) and [the web](https://example.com/x.md#nothing); `[not](a-link.md)`.
                [gone](nowhere.md) [no heading](serving.md#nowhere) [outside](../../x.md)
                """)
        let problems = page.links.compactMap { link in page.problem(withLink: link.text, root: Documentation.root).map { "\(link.line): \($0)" } }
        #expect(
            problems == [
                "5: links to `nowhere.md`, which does not exist", "5: links to `docs/serving.md#nowhere`, a heading it does not have",
                "5: links to `../../x.md`, which does not exist",
            ])
    }

    @Test("anchors are GitHub's: lower case, punctuation dropped, spaces as hyphens, a repeated heading numbered")
    func anchors() {
        let page = DocumentationPage(path: "x.md", text: "# `flint serve`\n## X (Twitter)\n```sh\n# not a heading\n```\n## Sessions\n## Sessions\n")
        #expect(page.anchors == ["flint-serve", "x-twitter", "sessions", "sessions-1"])
    }
}
