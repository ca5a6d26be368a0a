import HTTPTypes
import Testing

/// The series of a Prometheus text exposition, by their exact text (`name{label="value",…}`).
package struct Exposition {
    package let values: [String: Double]
    package let text: String

    package init(_ text: String) {
        self.text = text
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        self.values = values
    }

    package subscript(_ series: String) -> Double? { values[series] }
}

extension API {
    /// `GET /metrics` as the operator, parsed.
    package func metrics() async throws -> Exposition {
        let reply = try await admin(.get, "/metrics")
        #expect(reply.status == .ok, "\(reply.text)")
        return Exposition(reply.text)
    }
}
