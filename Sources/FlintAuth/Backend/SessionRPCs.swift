/// Flint's `sessions:end`: one of the signed-in user's sessions by its ID.
struct EndSessionRequest: Encodable {
    var idToken: String
    var sessionId: String
}

/// Flint's `sessions:list` answer.
struct SessionListResponse: Decodable {
    struct Session: Decodable {
        var sessionId: String
        var device: String?
        var firstIp: String?
        var lastIp: String?
        var createdAt: String?
        var lastUsedAt: String?
        var signInProvider: String?
        var secondFactor: String?
        var current: Bool?
    }

    var sessions: [Session]?
}

/// Flint's `sessions:endOthers` answer.
struct EndOtherSessionsResponse: Decodable {
    var endedCount: Int?
}
