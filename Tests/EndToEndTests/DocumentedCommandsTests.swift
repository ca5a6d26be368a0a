import FlintServerTestSupport
import Foundation
import Testing

@Suite("What the docs name: flint commands")
struct DocumentedCommandsTests {
    @Test("every `flint …` command README.md and docs/ name (design notes aside) is a subcommand path of the built binary")
    func everyDocumentedCommandExists() async throws {
        let (status, output) = try await runFlint(["--experimental-dump-help"])
        try #require(status == 0, "flint --experimental-dump-help: \(output)")
        let tree = try CommandTree(dumpedHelp: Data(output.utf8))
        #expect(tree.subcommands.contains { $0.name == "serve" } && tree.subcommands.count > 10, "the tree was read: \(tree.subcommands.map(\.name))")
        let commands = try Documentation.pages().filter { !$0.isDesignNote }.flatMap(\.commands)
        #expect(commands.count > 100, "the docs were read: \(commands.count) invocations")
        for (name, words) in commands {
            if let problem = tree.problem(with: words) { Issue.record("\(name): \(problem)") }
        }
    }

    @Test(
        "an invocation's words are read up to its first argument, and each must name a subcommand of the one before",
        arguments: [
            ("`flint users end-session UID SESSION`", nil),
            ("`SECRET=$(flint admin tokens create ci --scope read)`", nil),
            ("`flint providers saml list|get|update|delete … [--tenant …]`", nil),
            ("`flint admin operators role auditor@example.com admin`", nil),
            ("`swift run flint serve --dev`", nil),
            ("`# flint users sessions UID, flint users sessoins UID`", "`flint users` has no subcommand `sessoins`"),
            ("`flint users sessoins UID`", "`flint users` has no subcommand `sessoins`"),
            ("`flint webhooks add|drop`", "`flint webhooks` has no subcommand `drop`"),
            ("`flint backups /tmp/x`", "`flint` has no subcommand `backups`"),
        ] as [(String, String?)])
    func readsInvocations(text: String, problem: String?) {
        let tree = CommandTree(
            name: "flint",
            subcommands: [
                CommandTree(name: "serve", subcommands: []), CommandTree(name: "backup", subcommands: []),
                CommandTree(
                    name: "users",
                    subcommands: [CommandTree(name: "end-session", subcommands: []), CommandTree(name: "sessions", subcommands: [])]),
                CommandTree(
                    name: "admin",
                    subcommands: [
                        CommandTree(name: "tokens", subcommands: [CommandTree(name: "create", subcommands: [])]),
                        CommandTree(name: "operators", subcommands: [CommandTree(name: "role", subcommands: [])]),
                    ]),
                CommandTree(
                    name: "providers",
                    subcommands: [
                        CommandTree(name: "saml", subcommands: ["list", "get", "update", "delete"].map { CommandTree(name: $0, subcommands: []) })
                    ]),
                CommandTree(name: "webhooks", subcommands: [CommandTree(name: "add", subcommands: [])]),
            ])
        let commands = DocumentationPage(path: "docs/x.md", text: "Prose,\n\(text)\n").commands
        #expect(!commands.isEmpty && commands.allSatisfy { $0.name.line == 2 })
        #expect(commands.compactMap { tree.problem(with: $0.words) }.first == problem)
    }

    @Test("a `flint` that is another command's argument, or a word of prose, is no invocation")
    func otherFlints() {
        let text = "```sh\ncreatedb -h db.internal -O flint flint\n```\nThe flint command, `flint_changes`, `flint.sessions`.\n"
        #expect(DocumentationPage(path: "docs/x.md", text: text).commands.isEmpty)
    }
}
