import ArgumentParser
import FlintCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint admin …`: the credentials of the project's backends and operators — service accounts whose keys sign custom
/// tokens, and named admin bearer credentials.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage service accounts (custom tokens), admin credentials and console operators.",
        subcommands: [ServiceAccounts.self, AdminTokens.self, ConsoleOperatorsCommand.self])
}

/// A credential's instant (or none) as people and `--json` read it: ISO 8601, UTC.
func credentialTime(_ instant: Instant?) -> String? {
    instant.map { $0.date.formatted(.iso8601) }
}

/// Prints rows as aligned columns under `header`.
func printTable(_ header: [String], _ rows: [[String]]) {
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    for row in [header] + rows {
        let cells = row.enumerated().map { column, text in
            column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count)
        }
        print(cells.joined(separator: "  "))
    }
}

/// Prints `value` as pretty JSON (sorted keys).
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
