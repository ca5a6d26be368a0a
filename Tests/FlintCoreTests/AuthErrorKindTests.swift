import FlintCore
import HTTPTypes
import Testing

@Suite("AuthError: compared by kind, never by words")
struct AuthErrorKindTests {
    @Test("errors of one kind are equal whatever their details; the detail still reaches the message")
    func detailDoesNotDecideEquality() {
        let refused = AuthError.invalidPhoneNumber.with(detail: "TOO_SHORT")
        #expect(refused == .invalidPhoneNumber)
        #expect(refused.message == "INVALID_PHONE_NUMBER : TOO_SHORT")
        #expect(AuthError.invalidArgument("kid is required") == AuthError.invalidArgument("another text"))
    }

    @Test("kinds differ by status, code, reason or RPC status")
    func kindsDiffer() {
        #expect(AuthError.invalidCode != .invalidOobCode)
        #expect(AuthError.notFound != .projectNotFound)
        #expect(AuthError(status: .conflict, code: "X") != AuthError(status: .badRequest, code: "X"))
        #expect(AuthError(code: "X", reason: "invalid") != AuthError(code: "X", reason: "forbidden"))
        #expect(AuthError.idpConfigExists.status == .conflict && AuthError.internalError.status == .internalServerError)
        #expect(Set([AuthError.invalidCode.kind, AuthError.invalidCode.with(detail: "x").kind]).count == 1)
    }
}
