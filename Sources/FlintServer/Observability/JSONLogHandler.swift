public import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint serve --log-format json`: one JSON object per line, for log shippers —
/// `{"time":"2026-11-22T04:30:00.123Z","level":"info","message":"…","metadata":{…},"source":"FlintServer","label":"flint"}`.
///
/// `time` is RFC 3339 in UTC with milliseconds; `metadata` merges the handler's, the metadata provider's and the
/// call's (in that order of precedence, the call's last), with nested lists and dictionaries kept as JSON arrays and
/// objects. Each line is written with one `write` to the output (standard error unless told), so lines from
/// concurrent tasks never interleave.
public struct JSONLogHandler: LogHandler {
    /// The logger's label (`flint`).
    public let label: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let output: @Sendable (String) -> Void

    /// A handler writing to standard error.
    /// - Parameters:
    ///   - label: the logger's label.
    ///   - metadataProvider: metadata added to every line (e.g. from the task's context).
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider, output: Self.standardError)
    }

    /// A handler writing each line (newline included) to `output`.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, output: @escaping @Sendable (String) -> Void) {
        (self.label, self.metadataProvider, self.output) = (label, metadataProvider, output)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var line = "{\"time\":"
        JSONText.appendString(Self.timestamp(), to: &line)
        line += ",\"level\":"
        JSONText.appendString(event.level.rawValue, to: &line)
        line += ",\"message\":"
        JSONText.appendString(event.message.description, to: &line)
        line += ",\"metadata\":"
        JSONText.append(.dictionary(merged), to: &line)
        line += ",\"source\":"
        JSONText.appendString(event.source, to: &line)
        line += ",\"label\":"
        JSONText.appendString(label, to: &line)
        line += "}\n"
        output(line)
    }

    /// The current time, RFC 3339 in UTC with milliseconds.
    private static func timestamp() -> String {
        // `Date` rather than `clock_gettime`: in a whole-module (release) build the C library's `timespec` resolves to
        // CoreFoundation's, which this file cannot import on every platform.
        RFC3339.format(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// Writes a line to standard error in one call.
    private static let standardError: @Sendable (String) -> Void = { line in
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}

/// JSON text of log values, written by hand: strings escaped as RFC 8259 requires (quote, backslash, control
/// characters), the rest of Unicode kept as it is.
enum JSONText {
    /// Appends `value` as JSON: a string, an array or an object (stringConvertible values as their description).
    static func append(_ value: Logger.Metadata.Value, to out: inout String) {
        switch value {
        case .string(let text): appendString(text, to: &out)
        case .stringConvertible(let convertible): appendString(convertible.description, to: &out)
        case .array(let values):
            out += "["
            for (index, element) in values.enumerated() {
                if index > 0 { out += "," }
                append(element, to: &out)
            }
            out += "]"
        case .dictionary(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                appendString(key, to: &out)
                out += ":"
                append(members[key]!, to: &out)
            }
            out += "}"
        }
    }

    /// Appends `text` as a JSON string.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
