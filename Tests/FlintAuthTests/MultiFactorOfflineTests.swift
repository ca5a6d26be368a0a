import FlintAuthTestSupport
import Foundation
import Testing

@testable import FlintAuth

@Suite("Multi-factor without a server")
struct MultiFactorOfflineTests {
    static func auth() throws -> Auth {
        FlintApp.configure(name: "mfa-offline", options: FlintOptions(apiKey: "k", projectID: "demo-flint"))
        return Auth.auth(app: try #require(FlintApp.app(name: "mfa-offline")))
    }

    @Test("a first-factor answer with a pending credential throws secondFactorRequired carrying a resolver with typed hints")
    func resolverFromAnswer() throws {
        let json = """
            {"localId": "u1", "email": "a@example.com", "mfaPendingCredential": "pending",
             "mfaInfo": [{"mfaEnrollmentId": "e1", "displayName": "Work", "enrolledAt": "2026-11-22T06:00:00.123Z",
                          "phoneInfo": "+*******2671"},
                         {"mfaEnrollmentId": "e2", "enrolledAt": "2026-11-21T06:00:00Z", "totpInfo": {}},
                         {"displayName": "no id", "phoneInfo": "+*******0000"},
                         {"mfaEnrollmentId": "e3", "displayName": "a passkey, say"}]}
            """
        let response = try JSONDecoder().decode(SignInResponse.self, from: Data(json.utf8))
        let auth = try Self.auth()
        do {
            _ = try Auth.tokens(of: response, auth: auth, providerID: "password")
            Issue.record("no error")
        } catch let error as NSError {
            #expect(error.code == 17078)
            #expect(error.userInfo[AuthErrors.userInfoNameKey] as? String == "ERROR_SECOND_FACTOR_REQUIRED")
            #expect(error.userInfo[AuthErrors.userInfoEmailKey] as? String == "a@example.com")
            let resolver = try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver)
            #expect(resolver.auth === auth)
            #expect(resolver.hints.count == 2)
            let phone = try #require(resolver.hints.first as? PhoneMultiFactorInfo)
            #expect(phone.phoneNumber == "+*******2671")
            #expect(phone.enrollmentDate == Date(timeIntervalSince1970: 1_795_327_200.123))
            #expect(resolver.hints.last is TOTPMultiFactorInfo)
            #expect(resolver.hints.last?.factorID == "totp")
            #expect(resolver.hints.last?.enrollmentDate == Date(timeIntervalSince1970: 1_795_240_800))
            #expect(resolver.session.pendingCredential == "pending")
        }
    }

    @Test("an unreadable enrolment date falls back to now, as FirebaseAuth")
    func dateFallback() throws {
        let wire = try JSONDecoder().decode(
            MFAEnrollmentWire.self, from: Data(#"{"mfaEnrollmentId":"e","enrolledAt":"yesterday","phoneInfo":"+1"}"#.utf8))
        let stored = try #require(StoredMultiFactorInfo(wire))
        #expect(abs(stored.enrollmentDate.timeIntervalSinceNow) < 5)
        #expect(stored.factorID == PhoneMultiFactorID)
    }

    @Test("the QR-code URL percent-encodes its label and issuer and names a non-default period")
    func qrCodeURL() {
        let secret = TOTPSecret(
            secretKey: "JBSWY3DPEHPK3PXP", hashingAlgorithm: "SHA1", codeLength: 8, period: 60, sessionInfo: "s",
            enrollmentCompletionDeadline: nil)
        #expect(
            secret.generateQRCodeURL(withAccountName: "a b@example.com", issuer: "Acme & Co")
                == "otpauth://totp/Acme%20%26%20Co:a%20b@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme%20%26%20Co&algorithm=SHA1&digits=8&period=60"
        )
        // Letters outside ASCII are UTF-8 bytes, percent-encoded: the URL parses, and apps show the name back.
        let accented = secret.generateQRCodeURL(withAccountName: "josé@example.com", issuer: "Café Ünal")
        #expect(
            accented
                == "otpauth://totp/Caf%C3%A9%20%C3%9Cnal:jos%C3%A9@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Caf%C3%A9%20%C3%9Cnal&algorithm=SHA1&digits=8&period=60"
        )
        #expect(URL(string: accented)?.host == "totp")
        #expect(accented.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test("assertions build the finalize requests FirebaseAuth sends; a sign-in assertion cannot enrol")
    func finalizeRequests() throws {
        let provider = PhoneAuthProvider.provider(auth: try Self.auth())
        let phone = PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: "v", verificationCode: "123456"))
        let request = try MultiFactor.finalizeRequest(phone, displayName: "Work")
        let body = try #require(String(data: try JSONEncoder().encode(request), encoding: .utf8))
        #expect(body.contains(#""phoneVerificationInfo":{"#))
        #expect(body.contains(#""sessionInfo":"v""#) && body.contains(#""code":"123456""#) && body.contains(#""displayName":"Work""#))
        let signIn = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: "e", oneTimePassword: "123456")
        #expect(throws: (any Error).self) { try MultiFactor.finalizeRequest(signIn, displayName: nil) }
        #expect(phone.factorID == PhoneMultiFactorID && signIn.factorID == TOTPMultiFactorID)
    }
}
