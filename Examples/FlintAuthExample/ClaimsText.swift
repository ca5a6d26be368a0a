import Foundation

/// The lines the example prints about a signed-in user: the uid, then the ID token's claims as sorted JSON.
enum ClaimsText {
    static func describe(uid: String, claims: [String: Any]) -> String {
        var lines = ["Signed in. uid: \(uid)", "ID token claims:"]
        if JSONSerialization.isValidJSONObject(claims),
            let data = try? JSONSerialization.data(withJSONObject: claims, options: [.prettyPrinted, .sortedKeys])
        {
            lines.append(String(decoding: data, as: UTF8.self))
        } else {
            lines.append(contentsOf: claims.keys.sorted().map { "  \($0): \(claims[$0].map { "\($0)" } ?? "")" })
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
