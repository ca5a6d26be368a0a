import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

@testable import FlintAuth

@Suite("Action codes against flint serve")
struct ActionCodeFlowTests {
    @Test("sendEmailVerification, the link from the dev outbox, applyActionCode, reload: the email is verified")
    func verifyEmail() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let user = try await auth.createUser(withEmail: email, password: "correct horse").user
            try await user.sendEmailVerification()
            let code = try await server.oobCode(for: email, requestType: "VERIFY_EMAIL")

            let info = try await auth.checkActionCode(code)
            #expect(info.operation == .verifyEmail)
            #expect(info.email == email)
            #expect(info.previousEmail == nil)

            try await auth.applyActionCode(code)
            #expect(!user.isEmailVerified, "the cached profile changes only on reload")
            try await user.reload()
            #expect(user.isEmailVerified)
            await expectAuthError(.invalidActionCode, "a code was applied twice") { try await auth.applyActionCode(code) }
        }
    }

    @Test("sendEmailVerification(with:) carries the continue URL into the link")
    func verifyEmailWithSettings() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let user = try await auth.createUser(withEmail: email, password: "correct horse").user
            let settings = ActionCodeSettings()
            settings.url = URL(string: "http://localhost/verified")
            try await user.sendEmailVerification(with: settings)
            let link = try await server.oobLink(for: email)
            let items = URLComponents(string: link)?.queryItems ?? []
            #expect(items.first { $0.name == "continueUrl" }?.value == "http://localhost/verified")
            #expect(items.first { $0.name == "mode" }?.value == "verifyEmail")
        }
    }

    @Test("a password reset: verifyPasswordResetCode names the address, confirmPasswordReset sets the password")
    func passwordReset() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            try await auth.createUser(withEmail: email, password: "correct horse")
            try auth.signOut()
            let settings = ActionCodeSettings()
            settings.url = URL(string: "http://localhost/reset-done")
            try await auth.sendPasswordReset(withEmail: email, actionCodeSettings: settings)
            let code = try await server.oobCode(for: email, requestType: "PASSWORD_RESET")
            #expect(try await auth.checkActionCode(code).operation == .passwordReset)
            #expect(try await auth.verifyPasswordResetCode(code) == email)
            await expectAuthError(.weakPassword, "a weak password was accepted") {
                try await auth.confirmPasswordReset(withCode: code, newPassword: "abc")
            }
            try await auth.confirmPasswordReset(withCode: code, newPassword: "battery staple")
            #expect(try await auth.signIn(withEmail: email, password: "battery staple").user.email == email)
            await expectAuthError(.invalidActionCode, "a used code still verifies") { try await auth.verifyPasswordResetCode(code) }
        }
    }

    @Test("verifyPasswordResetCode refuses a code of another kind")
    func resetCodeOfAnotherKind() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let user = try await auth.createUser(withEmail: email, password: "correct horse").user
            try await user.sendEmailVerification()
            let code = try await server.oobCode(for: email, requestType: "VERIFY_EMAIL")
            await expectAuthError(.invalidActionCode, "a verification code passed as a reset code") { try await auth.verifyPasswordResetCode(code) }
        }
    }

    @Test("verify before update: the link goes to the new address, checkActionCode names both, applying it changes the email")
    func verifyBeforeUpdateEmail() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let oldEmail = uniqueEmail()
            let newEmail = uniqueEmail()
            let user = try await auth.createUser(withEmail: oldEmail, password: "correct horse").user
            try await user.sendEmailVerification(beforeUpdatingEmail: newEmail)
            #expect(user.email == oldEmail)
            let code = try await server.oobCode(for: newEmail, requestType: "VERIFY_AND_CHANGE_EMAIL")

            let info = try await auth.checkActionCode(code)
            #expect(info.operation == .verifyAndChangeEmail)
            #expect(info.email == newEmail)
            #expect(info.previousEmail == oldEmail)

            try await auth.applyActionCode(code)
            try auth.signOut()
            let signedIn = try await auth.signIn(withEmail: newEmail, password: "correct horse").user
            #expect(signedIn.uid == user.uid)
            #expect(signedIn.email == newEmail)
            #expect(signedIn.isEmailVerified)
            await expectAuthError(.invalidCredential, "the old address still signs in") {
                try await auth.signIn(withEmail: oldEmail, password: "correct horse")
            }
        }
    }

    @Test("verify before update to an address another account has is emailAlreadyInUse")
    func verifyBeforeUpdateTaken() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let taken = uniqueEmail()
            try await auth.createUser(withEmail: taken, password: "correct horse")
            let user = try await auth.createUser(withEmail: uniqueEmail(), password: "correct horse").user
            await expectAuthError(.emailAlreadyInUse, "a taken address was accepted") {
                try await user.sendEmailVerification(beforeUpdatingEmail: taken)
            }
        }
    }

    @Test("the completion forms of sendEmailVerification, checkActionCode and applyActionCode deliver the result")
    func completionForms() async throws {
        try await withFlint { server in
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let user = try await auth.createUser(withEmail: email, password: "correct horse").user
            let sent: (any Error)? = await withCheckedContinuation { continuation in
                user.sendEmailVerification { continuation.resume(returning: $0) }
            }
            #expect(sent == nil)
            let code = try await server.oobCode(for: email, requestType: "VERIFY_EMAIL")
            let operation: ActionCodeOperation? = await withCheckedContinuation { continuation in
                auth.checkActionCode(code) { info, _ in continuation.resume(returning: info?.operation) }
            }
            #expect(operation == .verifyEmail)
            let error: (any Error)? = await withCheckedContinuation { continuation in
                auth.applyActionCode(code) { continuation.resume(returning: $0) }
            }
            #expect(error == nil)
        }
    }

    @Test("ActionCodeOperation keeps FirebaseAuth's raw values and request types")
    func operationValues() {
        #expect(ActionCodeOperation.unknown.rawValue == 0)
        #expect(ActionCodeOperation.passwordReset.rawValue == 1)
        #expect(ActionCodeOperation.verifyEmail.rawValue == 2)
        #expect(ActionCodeOperation.recoverEmail.rawValue == 3)
        #expect(ActionCodeOperation.emailLink.rawValue == 4)
        #expect(ActionCodeOperation.verifyAndChangeEmail.rawValue == 5)
        #expect(ActionCodeOperation.revertSecondFactorAddition.rawValue == 6)
        #expect(ActionCodeOperation(requestType: "EMAIL_SIGNIN") == .emailLink)
        #expect(ActionCodeOperation(requestType: "VERIFY_AND_CHANGE_EMAIL") == .verifyAndChangeEmail)
        #expect(ActionCodeOperation(requestType: "SOMETHING_ELSE") == .unknown)
    }
}

extension FlintProcess {
    /// The code of the newest emailed link of `requestType` sent to `email` (the new address for a change), from
    /// `GET /emulator/v1/projects/demo-flint/oobCodes`.
    func oobCode(for email: String, requestType: String) async throws -> String {
        let (_, data) = try await get("/emulator/v1/projects/demo-flint/oobCodes")
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let entries = object?["oobCodes"] as? [[String: Any]] ?? []
        let entry = entries.last { $0["requestType"] as? String == requestType && (($0["newEmail"] as? String) ?? ($0["email"] as? String)) == email }
        guard let code = entry?["oobCode"] as? String else {
            throw FlintProcessError(message: "no \(requestType) code for \(email) in \(entries)")
        }
        return code
    }
}
