import Hummingbird

extension Request {
    /// The `updateMask` query parameter of a PATCH: its comma-separated paths, blanks dropped; `nil` without one.
    var updateMask: [String]? {
        uri.queryParameters["updateMask"].map { text in
            text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
    }
}
