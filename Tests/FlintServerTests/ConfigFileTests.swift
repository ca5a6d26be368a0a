import FlintCore
import FlintServerTestSupport
import Foundation
import Testing

@testable import FlintServer

@Suite("Config files: README examples, diff")
struct ConfigFileTests {
    /// The fenced `yaml` and `json` blocks of README.md.
    static func readmeExamples() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```yaml" || trimmed == "```yml" || trimmed == "```json" {
                current = []
            } else if current != nil, trimmed == "```" {
                examples.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return examples
    }

    @Test("every YAML and JSON config example in README.md is read by the config-file parser")
    func readmeExamplesParse() throws {
        let examples = try Self.readmeExamples()
        #expect(!examples.isEmpty)
        for (index, example) in examples.enumerated() {
            #expect(throws: Never.self, "README example \(index + 1)") {
                _ = try ConfigFile.parse(Data(example.utf8), name: "README example \(index + 1)")
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
