import FlintAuthTestSupport
import FlintTesting
import Foundation
import Testing

import enum FlintCore.Base32
import enum FlintCore.TOTP
import struct FlintCore.TOTPParameters

@testable import FlintAuth

@Suite("Multi-factor authentication against flint serve")
struct MultiFactorFlowTests {
    static let phone = "+14155552671"

    @Test("SMS factor: enrol (listeners fire, claims, full number), then a link sign-in resolves with a texted code")
    func smsEnrolAndResolve() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let user = try await server.signInWithLink(auth, email: email)
            let tokens = ListenerLog()
            let handle = auth.addIDTokenDidChangeListener { _, user in tokens.record(user) }
            defer { auth.removeIDTokenDidChangeListener(handle) }
            _ = try await tokens.waitFor(1)  // the listener's first call reports the current user

            let provider = PhoneAuthProvider.provider(auth: auth)
            let session = try await user.multiFactor.session()
            let verificationID = try await provider.verifyPhoneNumber(Self.phone, uiDelegate: nil, multiFactorSession: session)
            let wrong = PhoneMultiFactorGenerator.assertion(
                with: provider.credential(withVerificationID: verificationID, verificationCode: "000000"))
            let code = try await server.verificationCode(for: Self.phone)
            if code != "000000" {
                await #expect(throws: (any Error).self) { try await user.multiFactor.enroll(with: wrong, displayName: "Work") }
            }
            let assertion = PhoneMultiFactorGenerator.assertion(
                with: provider.credential(withVerificationID: verificationID, verificationCode: code))
            try await user.multiFactor.enroll(with: assertion, displayName: "Work")
            _ = try await tokens.waitFor(2)
            let factors = user.multiFactor.enrolledFactors
            #expect(factors.count == 1)
            let enrolled = try #require(factors.first as? PhoneMultiFactorInfo)
            #expect(enrolled.phoneNumber == Self.phone)
            #expect(enrolled.displayName == "Work")
            #expect(enrolled.factorID == PhoneMultiFactorID)
            #expect(abs(enrolled.enrollmentDate.timeIntervalSinceNow) < 120)
            #expect(try await user.getIDTokenResult().signInSecondFactor == "phone")

            try auth.signOut()
            let error = try await server.expectSecondFactor { try await server.signInWithLink(auth, email: email) }
            #expect(error.code == AuthErrorCode.secondFactorRequired.rawValue)
            let resolver = try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            #expect(resolver.isEnrollmentRequired == false)
            #expect(auth.currentUser == nil)
            let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
            #expect(hint.displayName == "Work")
            #expect(hint.phoneNumber.hasSuffix("2671") && hint.phoneNumber.contains("*"))
            #expect(hint.uid == enrolled.uid)

            let signInID = try await provider.verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: resolver.session)
            let signInCode = try await server.verificationCode(for: Self.phone)
            let result = try await resolver.resolveSignIn(
                with: PhoneMultiFactorGenerator.assertion(
                    with: provider.credential(withVerificationID: signInID, verificationCode: signInCode)))
            #expect(result.user.uid == user.uid)
            #expect(auth.currentUser === result.user)
            #expect(result.user.multiFactor.enrolledFactors.count == 1)
            #expect(try await result.user.getIDTokenResult().signInSecondFactor == "phone")
        }
    }

    @Test("with app verification enforced, SMS enrolment and the sign-in code go out after the app's silent-push proof")
    func smsFactorWithAppVerification() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            try await server.enforceAppVerification()
            let auth = server.makeVerifyingAuth()
            auth.setAPNSToken(AppVerificationFlowTests.apnsToken, type: .sandbox)
            let device = PushDevice(server: server, auth: auth)
            defer { device.stop() }
            let email = uniqueEmail()
            let user = try await server.signInWithLink(auth, email: email)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let enrolID = try await provider.verifyPhoneNumber(Self.phone, uiDelegate: nil, multiFactorSession: try await user.multiFactor.session())
            try await user.multiFactor.enroll(
                with: PhoneMultiFactorGenerator.assertion(
                    with: provider.credential(withVerificationID: enrolID, verificationCode: try await server.verificationCode(for: Self.phone))),
                displayName: nil)
            #expect(device.accepted.count == 1)

            try auth.signOut()
            let error = try await server.expectSecondFactor { try await server.signInWithLink(auth, email: email) }
            let resolver = try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            let hint = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
            let signInID = try await provider.verifyPhoneNumber(with: hint, uiDelegate: nil, multiFactorSession: resolver.session)
            let result = try await resolver.resolveSignIn(
                with: PhoneMultiFactorGenerator.assertion(
                    with: provider.credential(withVerificationID: signInID, verificationCode: try await server.verificationCode(for: Self.phone))))
            #expect(result.user.uid == user.uid)
            #expect(try await server.pushes().count == 1)  // the stored receipt served the second code too

            // Without any proof (no APNs token, no UI delegate) an enforcing server refuses the enrolment code.
            let bare = server.makeVerifyingAuth()
            let other = try await server.signInWithLink(bare, email: uniqueEmail())
            do {
                _ = try await PhoneAuthProvider.provider(auth: bare).verifyPhoneNumber(
                    "+14155550199", uiDelegate: nil, multiFactorSession: try await other.multiFactor.session())
                Issue.record("an enrolment code went out without an app proof")
            } catch {
                #expect(authCode(error) == AuthErrorCode.missingAppCredential.rawValue)
            }
        }
    }

    @Test("TOTP factor: secret, QR URL, enrol with a one-time password, password sign-in resolves with the next one")
    func totpEnrolAndResolve() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            let auth = server.makeAuth()
            let (email, user) = try await server.signedInVerifiedUser(on: auth)

            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            let key = secret.sharedSecretKey()
            #expect(Base32.decode(key)?.count == 20)
            let url = secret.generateQRCodeURL(withAccountName: email, issuer: "Flint Test")
            #expect(url.hasPrefix("otpauth://totp/Flint%20Test:\(email)?secret=\(key)&issuer=Flint%20Test&algorithm=SHA1&digits=6"))
            let codes = try await user.multiFactor.enrollReturningRecoveryCodes(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: Self.totp(key, offset: 0)),
                displayName: "Phone app")
            #expect(codes.count == 10)
            #expect(user.multiFactor.enrolledFactors.first is TOTPMultiFactorInfo)
            #expect(try await user.getIDTokenResult().signInSecondFactor == "totp")

            try auth.signOut()
            let error = try await server.expectSecondFactor { try await auth.signIn(withEmail: email, password: "correct horse") }
            let resolver = try #require(error.userInfo[AuthErrors.userInfoMultiFactorResolverKey] as? MultiFactorResolver)
            let hint = try #require(resolver.hints.first)
            #expect(hint.factorID == TotpMultiFactorID)
            #expect(hint is TOTPMultiFactorInfo)
            // The enrolment spent this time step's password; the next step's is inside the allowed skew.
            let result = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: Self.totp(key, offset: 1)))
            #expect(result.user.uid == user.uid)
            #expect(result.additionalUserInfo?.providerID == "password")

            // A recovery code resolves once.
            try auth.signOut()
            let again = try await server.expectSecondFactor { try await auth.signIn(withEmail: email, password: "correct horse") }
            let second = try #require(again.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            #expect(try await second.resolveSignIn(withRecoveryCode: codes[0]).user.uid == user.uid)
            try auth.signOut()
            let third = try await server.expectSecondFactor { try await auth.signIn(withEmail: email, password: "correct horse") }
            let resolverThree = try #require(third.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            await #expect(throws: (any Error).self) { try await resolverThree.resolveSignIn(withRecoveryCode: codes[0]) }
        }
    }

    @Test("unenroll removes the factor; the next sign-in needs none; enrolled factors survive a restart")
    func unenrollAndPersistence() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            let store = URL(fileURLWithPath: server.directory).appendingPathComponent("store-persist")
            let auth = server.makeAuth(appName: "persist-\(UUID().uuidString.prefix(6))", storeDirectory: store)
            let email = uniqueEmail()
            let user = try await server.signInWithLink(auth, email: email)
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(
                    with: secret, oneTimePassword: Self.totp(secret.sharedSecretKey(), offset: 0)),
                displayName: nil)

            let restored = Auth(app: auth.flintApp, storeDirectory: store)
            let factor = try #require(restored.currentUser?.multiFactor.enrolledFactors.first)
            #expect(factor.factorID == TOTPMultiFactorID)
            #expect(factor.uid == user.multiFactor.enrolledFactors.first?.uid)

            try await user.multiFactor.unenroll(with: factor)
            #expect(user.multiFactor.enrolledFactors.isEmpty)
            #expect(auth.currentUser === user)
            try auth.signOut()
            let result = try await server.signInWithLink(auth, email: email)
            #expect(result.uid == user.uid)

            await #expect(throws: (any Error).self) { try await result.multiFactor.unenroll(withFactorUID: "no-such-factor") }
        }
    }

    @Test("a mandatory project: a sign-in without factors resolves by enrolling one (TOTP, SMS) through the resolver")
    func mandatoryEnrolment() async throws {
        try await withFlint { server in
            try await server.enableMFA(state: "MANDATORY")
            let auth = server.makeAuth()
            let email = uniqueEmail()
            let error = try await server.expectSecondFactor { try await server.signInWithLink(auth, email: email) }
            let resolver = try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            #expect(resolver.isEnrollmentRequired)
            #expect(resolver.hints.isEmpty)
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: resolver.session)
            let result = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(
                    with: secret, oneTimePassword: Self.totp(secret.sharedSecretKey(), offset: 0)))
            #expect(result.user.email == email)
            #expect(result.user.multiFactor.enrolledFactors.count == 1)
            #expect(try await result.user.getIDTokenResult().signInSecondFactor == "totp")

            // The same with an SMS factor, for another account.
            try auth.signOut()
            let other = uniqueEmail()
            let again = try await server.expectSecondFactor { try await server.signInWithLink(auth, email: other) }
            let smsResolver = try #require(again.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber("+14155550123", uiDelegate: nil, multiFactorSession: smsResolver.session)
            let code = try await server.verificationCode(for: "+14155550123")
            let smsResult = try await smsResolver.resolveSignIn(
                with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: verificationID, verificationCode: code)))
            #expect(smsResult.user.email == other)
            #expect((smsResult.user.multiFactor.enrolledFactors.first as? PhoneMultiFactorInfo)?.phoneNumber == "+14155550123")
        }
    }

    @Test("completion forms: getSessionWithCompletion and getSession; enrolling an empty number is missingPhoneNumber")
    func completionForms() async throws {
        try await withFlint { server in
            try await server.enableMFA()
            let auth = server.makeAuth()
            let user = try await server.signInWithLink(auth, email: uniqueEmail())
            let session: MultiFactorSession = try await withCheckedThrowingContinuation { continuation in
                user.multiFactor.getSessionWithCompletion { session, error in
                    if let session { continuation.resume(returning: session) } else { continuation.resume(throwing: error ?? CancellationError()) }
                }
            }
            let other: MultiFactorSession = try await withCheckedThrowingContinuation { continuation in
                user.multiFactor.getSession { session, error in
                    if let session { continuation.resume(returning: session) } else { continuation.resume(throwing: error ?? CancellationError()) }
                }
            }
            #expect(other.idToken == session.idToken)
            let error: (any Error)? = await withCheckedContinuation { continuation in
                PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("", uiDelegate: nil, multiFactorSession: session) { _, error in
                    continuation.resume(returning: error)
                }
            }
            #expect(error.flatMap(authCode) == AuthErrorCode.missingPhoneNumber.rawValue)
        }
    }

    /// The TOTP password of `key` for the time step `offset` steps from now.
    static func totp(_ key: String, offset: Int64) -> String {
        let step = TOTP.step(at: Int64(Date().timeIntervalSince1970), period: 30) + offset
        return TOTP.code(secret: Base32.decode(key) ?? [], step: step, parameters: TOTPParameters())
    }
}
