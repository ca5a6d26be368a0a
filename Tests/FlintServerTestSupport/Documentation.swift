package import Foundation

/// One Markdown page of the repository's documentation, read for what the docs checks look for: the HTTP routes,
/// the `flint` commands and the relative links it names, each with its line.
package struct DocumentationPage: Sendable {
    /// The page's path from the repository's root (`docs/api.md`).
    package let path: String
    /// Its lines, in order.
    package let lines: [String]

    /// Whether it is a design note or a review (`docs/design/`, `docs/review/`): a record of plans and findings,
    /// which may name routes and commands that are not there (yet, or any more). Their links are checked all the
    /// same.
    package var isDesignNote: Bool { path.hasPrefix("docs/design/") || path.hasPrefix("docs/review/") }

    package init(path: String, text: String) {
        self.path = path
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A piece of a line: the text of a fenced code block's line, of a code span, or of the prose around code spans.
    package struct Piece: Sendable, Equatable {
        package let line: Int
        package let text: String
        package let isCode: Bool
    }

    /// The page cut into prose and code. Code spans may run over line breaks within a paragraph (each line's part
    /// is its own piece); a blank line or a fence ends an unclosed span.
    package var pieces: [Piece] {
        var pieces: [Piece] = []
        var inFence = false
        var inSpan = false
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                inSpan = false
                continue
            }
            if inFence {
                pieces.append(Piece(line: number, text: line, isCode: true))
                continue
            }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { inSpan = false }
            for (part, text) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
                if part > 0 { inSpan.toggle() }
                if !text.isEmpty { pieces.append(Piece(line: number, text: String(text), isCode: inSpan)) }
            }
        }
        return pieces
    }

    /// The anchors of its headings, as GitHub makes them: the heading's text in lower case, without punctuation,
    /// spaces as hyphens, a repeated one numbered (`-1`, `-2` …). Headings inside fenced code are none.
    package var anchors: Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        var inFence = false
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }
            guard title.first == " " else { continue }
            let slug = Self.slug(String(title))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// GitHub's anchor of a heading's text; a link's text counts, not its target.
    package static func slug(_ title: String) -> String {
        var text = title.trimmingCharacters(in: .whitespaces)
        while let open = text.range(of: "]("), let close = text[open.upperBound...].firstIndex(of: ")") {
            text.removeSubrange(open.lowerBound...close)
        }
        var slug = ""
        for character in text.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }
}

/// Something a page names, where it names it.
package struct DocumentedName: Sendable, Equatable, CustomStringConvertible {
    package let page: String
    package let line: Int
    package let text: String

    package init(page: String, line: Int, text: String) {
        (self.page, self.line, self.text) = (page, line, text)
    }

    package var description: String { "\(page):\(line): \(text)" }
}

/// The repository's documentation: README.md and every Markdown file under docs/.
package enum Documentation {
    /// The repository's root, from this file's place in it.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// README.md and docs/**/*.md, in path order.
    package static func pages(root: URL = root) throws -> [DocumentationPage] {
        var paths = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        if let walk = FileManager.default.enumerator(atPath: docs.path) {
            while let entry = walk.nextObject() as? String {
                if entry.hasSuffix(".md") { paths.append("docs/" + entry) }
            }
        }
        return try paths.sorted().map { path in
            DocumentationPage(path: path, text: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }
}

// MARK: - Routes

/// A route a page names: its path as written (query and fragment dropped), the method written before it if any,
/// and how much of a served path it stands for.
package struct DocumentedRoute: Sendable, Equatable {
    package let name: DocumentedName
    package let method: String?
    /// The path's segments, without the `/`s (`{p}` stays a placeholder segment).
    package let segments: [String]
    /// Whether the path begins where a served path begins (`/flint/v1/…`), rather than with an elision (`…/sessions`,
    /// `.../v1/accounts:signUp`) or a bare version (`v2/passwordPolicy`, relative to Identity Toolkit's host).
    package let fromStart: Bool
    /// Whether the path ends where a served path ends, rather than with `/…`, `/...` or `/` (everything under it).
    package let toEnd: Bool
}

extension DocumentationPage {
    /// Where Flint's own paths begin; a path a page names that starts with one of these must be served.
    static let routeRoots = [
        "/identitytoolkit.googleapis.com", "/securetoken.googleapis.com", "/www.googleapis.com/", "/flint/", "/console",
        "/emulator/", "/__/", "/.well-known/", "/metrics", "/openapi.json",
    ]
    /// Hosts whose URLs in the docs are a Flint server's (the examples' and the dev server's).
    static let flintHosts = ["127.0.0.1", "localhost", "auth.example.com"]
    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    /// Every route the page names: paths under Flint's roots, in prose, code spans and code blocks; Flint URLs
    /// (`http://127.0.0.1:9099/…`, `$B/…`, `https://auth.example.com/…`); `.../…` and `…/…` elisions; and `v1/`,
    /// `v2/`, `v3/` paths relative to Identity Toolkit's host.
    package var routes: [DocumentedRoute] {
        var routes: [DocumentedRoute] = []
        for piece in pieces {
            var previous = ""
            for token in Self.tokens(piece.text) {
                defer { previous = token }
                guard let route = Self.route(token) else { continue }
                let method = Self.methods.contains(previous) ? previous : nil
                routes.append(
                    DocumentedRoute(
                        name: DocumentedName(page: path, line: piece.line, text: token), method: method, segments: route.segments,
                        fromStart: route.fromStart, toEnd: route.toEnd))
            }
        }
        return routes
    }

    /// The text's words, cut at whitespace, quotes, brackets and the shell's punctuation.
    static func tokens(_ text: String) -> [String] {
        let separators = Set(" \t\"'()<>[],;|&=+")
        return text.split { separators.contains($0) }.map(String.init)
    }

    static func route(_ token: String) -> (segments: [String], fromStart: Bool, toEnd: Bool)? {
        var path = Substring(token)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        while path.hasSuffix(".") || path.hasSuffix(":") { path = path.dropLast() }
        var fromStart = true
        if path.hasPrefix("http://") || path.hasPrefix("https://") {
            let rest = path.drop { $0 != "/" }.dropFirst(2)
            let host = rest.prefix { $0 != "/" && $0 != ":" }
            guard flintHosts.contains(String(host)) else { return nil }
            path = rest.drop { $0 != "/" }
        } else if path.hasPrefix("$") {
            path = path.drop { $0 != "/" }
        } else if path.hasPrefix(".../") || path.hasPrefix("…/") {
            path = path.drop { $0 != "/" }
            fromStart = false
        } else if path.count > 3, path.hasPrefix("v"), "123".contains(path[path.index(after: path.startIndex)]),
            path.dropFirst(2).hasPrefix("/")
        {
            path = "/" + path
            fromStart = false
        }
        guard path.hasPrefix("/") else { return nil }
        if fromStart, !routeRoots.contains(where: { path.hasPrefix($0) }) { return nil }
        var segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var toEnd = true
        if let last = segments.last, last.isEmpty || last == "..." || last == "…" {
            segments.removeLast()
            toEnd = false
        }
        guard !segments.isEmpty || !toEnd else { return nil }
        return (segments, fromStart, toEnd)
    }
}

extension DocumentedRoute {
    /// Whether a served route (`METHOD /path/{param}`) is one this names: its segments line up with a run of the
    /// route's (all of them, or those at the start or end the elisions leave), each literal segment equal and each
    /// `{placeholder}` at a parameter of the route; an example value (`demo-flint`) may stand at a parameter too.
    package func isServed(by route: (method: String, path: String)) -> Bool {
        if let method, method != route.method { return false }
        let served = route.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count <= served.count else { return false }
        let starts = fromStart ? [0] : Array(0...(served.count - segments.count))
        return starts.contains { start in
            if toEnd, start + segments.count != served.count { return false }
            return zip(segments, served[start...]).allSatisfy { Self.segment($0, matches: $1) }
        }
    }

    /// Whether a documented path segment matches a served one, in which `{name}` is a parameter.
    static func segment(_ documented: String, matches served: String) -> Bool {
        var pattern = "^"
        var rest = Substring(served)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "(?:\\{[^{}/]*\\}|[^{}/]+)"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        return documented.range(of: pattern, options: .regularExpression) != nil
    }
}

// MARK: - Commands

extension DocumentationPage {
    /// Every `flint …` invocation in code (spans and blocks), as the words naming its subcommands: the words after
    /// `flint` while they are lower-case command names (`flint users end-session UID` gives `users end-session`);
    /// `a|b|c` names alternatives. A `flint` that is another command's argument is none.
    package var commands: [(name: DocumentedName, words: [String])] {
        var commands: [(name: DocumentedName, words: [String])] = []
        for piece in pieces where piece.isCode {
            let tokens = piece.text.split(whereSeparator: \.isWhitespace).map(String.init)
            for (index, token) in tokens.enumerated()
            where token.hasSuffix("(flint") || (token == "flint" && Self.startsCommand(after: tokens[..<index].last)) {
                let words = tokens[(index + 1)...].prefix { Self.isCommandWord($0) }
                let text = (["flint"] + words).joined(separator: " ")
                commands.append((name: DocumentedName(page: path, line: piece.line, text: text), words: Array(words)))
            }
        }
        return commands
    }

    /// Whether a `flint` after `previous` is the command (first on its line or span, after `swift run`, a shell
    /// operator, a comment's `#` or a comma), not an argument (`createdb -O flint flint`).
    static func startsCommand(after previous: String?) -> Bool {
        guard let previous else { return true }
        return ["run", "#", "&&", "||", ";", "|", "exec", "sudo", "time", "then", "do"].contains(previous) || previous.hasSuffix(",")
            || previous.hasSuffix(";") || previous.hasSuffix(":")
    }

    static func isCommandWord(_ word: String) -> Bool {
        !word.isEmpty
            && word.split(separator: "|", omittingEmptySubsequences: false).allSatisfy { name in
                name.first?.isLowercase == true && name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && name.first != "-"
            }
    }
}

/// A command of the CLI and its subcommands, by name.
package struct CommandTree: Sendable, Equatable {
    package let name: String
    package let subcommands: [CommandTree]

    package init(name: String, subcommands: [CommandTree]) {
        (self.name, self.subcommands) = (name, subcommands)
    }

    /// The tree ArgumentParser's `--experimental-dump-help` prints (`command.commandName`, `subcommands`).
    package init(dumpedHelp: Data) throws {
        let object = try JSONSerialization.jsonObject(with: dumpedHelp)
        guard let command = (object as? [String: Any])?["command"] as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        self.init(command)
    }

    private init(_ command: [String: Any]) {
        name = command["commandName"] as? String ?? ""
        subcommands = (command["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init)
    }

    /// What is wrong with an invocation's subcommand words, or `nil` when each names a subcommand (a leaf's further
    /// words are its arguments, and `help` is ArgumentParser's).
    package func problem(with words: [String]) -> String? {
        var command = self
        var path = [name]
        for word in words {
            guard !command.subcommands.isEmpty else { return nil }
            let names = word.split(separator: "|").map(String.init)
            for name in names where !command.subcommands.contains(where: { $0.name == name }) && name != "help" {
                return "`\(path.joined(separator: " "))` has no subcommand `\(name)`"
            }
            guard names.count == 1, let next = command.subcommands.first(where: { $0.name == names[0] }) else { return nil }
            command = next
            path.append(next.name)
        }
        return nil
    }
}

// MARK: - Links

extension DocumentationPage {
    /// The relative targets of the page's Markdown links and images (`[text](docs/x.md#anchor)`), outside code;
    /// URLs with a scheme are left out.
    package var links: [DocumentedName] {
        var links: [DocumentedName] = []
        for piece in pieces where !piece.isCode {
            var rest = Substring(piece.text)
            while let open = rest.range(of: "](") {
                let target = rest[open.upperBound...].prefix { $0 != ")" && $0 != " " }
                rest = rest[open.upperBound...]
                guard !target.isEmpty, target.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", options: .regularExpression) == nil else { continue }
                links.append(DocumentedName(page: path, line: piece.line, text: String(target)))
            }
        }
        return links
    }

    /// A relative link's path from the repository's root, or `nil` when it leaves the repository.
    static func resolve(_ link: String, from page: String) -> String? {
        var components = page.split(separator: "/").dropLast().map(String.init)
        for component in link.split(separator: "/") {
            if component == ".." {
                guard components.popLast() != nil else { return nil }
            } else if component != "." {
                components.append(String(component))
            }
        }
        return components.joined(separator: "/")
    }

    /// What is wrong with a relative link of this page (a file that does not exist, an anchor its page lacks), or
    /// `nil`.
    package func problem(withLink target: String, root: URL) -> String? {
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let file = String(parts[0])
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        guard let resolved = file.isEmpty ? path : Self.resolve(file, from: path),
            file.isEmpty || FileManager.default.fileExists(atPath: root.appendingPathComponent(resolved).path)
        else {
            return "links to `\(file)`, which does not exist"
        }
        guard let anchor, resolved.hasSuffix(".md") else { return nil }
        let text: String? =
            file.isEmpty ? lines.joined(separator: "\n") : (try? String(contentsOf: root.appendingPathComponent(resolved), encoding: .utf8))
        guard let text, DocumentationPage(path: resolved, text: text).anchors.contains(anchor) else {
            return "links to `\(resolved)#\(anchor)`, a heading it does not have"
        }
        return nil
    }
}
