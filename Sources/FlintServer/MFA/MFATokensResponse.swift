import Hummingbird

/// The answer of `mfaEnrollment:finalize`, `mfaSignIn:finalize` and `mfaEnrollment:withdraw`: the session's new
/// tokens; the first enrolment also returns its one-time recovery codes (Flint extension field `recoveryCodes`).
struct MFATokensResponse: ResponseEncodable {
    var tokens: SessionTokens
    var recoveryCodes: [String]?

    private enum CodingKeys: String, CodingKey { case recoveryCodes }

    func encode(to encoder: any Encoder) throws {
        try tokens.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(recoveryCodes, forKey: .recoveryCodes)
    }
}
