import FlintCore
import FlintServerTestSupport
import Foundation
import Testing

@testable import FlintServer

@Suite("Config files: the docs' examples, diff")
struct ConfigFileTests {
    /// The fenced `yaml` and `json` blocks of README.md and docs/, each named by its page and line.
    static func documentedExamples() throws -> [(name: String, text: String)] {
        var examples: [(String, String)] = []
        for page in try Documentation.pages() {
            var current: (line: Int, lines: [String])?
            for (index, line) in page.lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if current == nil, trimmed == "```yaml" || trimmed == "```yml" || trimmed == "```json" {
                    current = (index + 1, [])
                } else if let block = current, trimmed == "```" {
                    examples.append(("\(page.path):\(block.line)", block.lines.joined(separator: "\n")))
                    current = nil
                } else if current != nil {
                    current?.lines.append(line)
                }
            }
        }
        return examples
    }

    @Test("every YAML and JSON config example in README.md and docs/ is read by the config-file parser")
    func documentedExamplesParse() throws {
        let examples = try Self.documentedExamples()
        #expect(examples.count >= 10, "the docs were read: \(examples.count) examples")
        for (name, example) in examples {
            #expect(throws: Never.self, "\(name)") {
                _ = try ConfigFile.parse(Data(example.utf8), name: name)
            }
        }
    }

    @Test("a YAML document with a key twice is refused")
    func duplicateKeysAreRefused() {
        let text = "signIn:\n  phoneNumber: {enabled: true}\nsignIn:\n  email: {enabled: true}\n"
        #expect(throws: ConfigFile.Failure.self) { _ = try ConfigFile.parse(Data(text.utf8), name: "twice.yaml") }
    }

    @Test("diff lists the leaf fields under the file's top-level keys that differ, and nothing else")
    func differences() throws {
        let file = try ConfigFile.parse(
            Data("signIn: {phoneNumber: {enabled: false}}\nauthorizedDomains: [localhost]\n".utf8), name: "f.yaml")
        let stored = ProjectConfig.defaults.document
        let differences = ConfigFile.differences(file: file, stored: stored)
        let paths = differences.map(\.path)
        #expect(paths.contains("signIn.phoneNumber.enabled"))
        #expect(differences.first { $0.path == "signIn.phoneNumber.enabled" }?.file == .bool(false))
        #expect(paths.contains("signIn.email"), "the file's signIn replaces the stored one whole")
        #expect(differences.first { $0.path == "signIn.email" }?.file == nil)
        #expect(!paths.contains("authorizedDomains"))
        #expect(ConfigFile.differences(file: stored, stored: stored).isEmpty)
    }
}
