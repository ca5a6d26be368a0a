import FlintServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint users import`'s report of a summary: as JSON, and one line for people.
extension ImportSummary {
    /// The summary as JSON text.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One line for people.
    var line: String {
        "imported \(imported) of \(read) users from \(file) (\(failed) failed, \(skipped) already present) in "
            + "\(ProgressLine.duration(seconds)), \(usersPerSecond) users/s"
    }
}
