import FlintCore
import FlintStore
import Testing

@Suite("Counter keys: every namespace's stored key, as flows wrote it before CounterKey")
struct CounterKeyTests {
    /// SHA-256 of `abc`, lower-case hex: what a key holds for a secret `abc`.
    static let abcHash = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    static let phone = "+16505553434"

    /// Each constructor beside the literal it replaces: stored counters keep counting across an upgrade.
    static let pinned: [(CounterKey, String)] = [
        (.number(tenant: .default, phone, .sends(per: .hour)), "sms-sent:h:+16505553434"),
        (.number(tenant: .default, phone, .sends(per: .day)), "sms-sent:d:+16505553434"),
        (.number(tenant: .default, phone, .wrongCodes(per: .hour)), "sms-wrong:h:+16505553434"),
        (.number(tenant: .default, phone, .wrongCodes(per: .day)), "sms-wrong:d:+16505553434"),
        (.fictionalCodeTries(sessionInfo: "abc"), "sms-fictional:" + abcHash),
        (.smsSends(clientIP: "192.0.2.1", per: .hour), "sms-ip:h:192.0.2.1"),
        (.smsSends(clientIP: "192.0.2.1", per: .day), "sms-ip:d:192.0.2.1"),
        (.smsSends(country: "US", per: .hour), "sms-country:h:US"),
        (.smsSends(country: "+882", per: .hour), "sms-country:h:+882"),
        (.smsBudget, "sms-budget:d"),
        (.smsBudgetAlert, "sms-budget-alert:d"),
        (.oobEmails(tenant: .default, to: "a@b.c"), "oob:email:a@b.c"),
        (.oobEmails(clientIP: "192.0.2.1"), "oob:ip:192.0.2.1"),
        (.passwordFailures(tenant: .default, email: "a@b.c"), "pwfail:email:a@b.c"),
        (.passwordFailures(clientIP: "192.0.2.1"), "pwfail:ip:192.0.2.1"),
        (.newAccounts(clientIP: "192.0.2.1"), "newaccount:ip:192.0.2.1"),
        (.consoleSignInFailures(email: "op@b.c"), "console-fail:op@b.c"),
        (.lockoutRecorded(.passwordFailures(clientIP: "192.0.2.1")), "lockout:pwfail:ip:192.0.2.1"),
        (.secondFactorTries(credentialNonce: [0x00, 0x0f, 0xab]), "mfa:000fab"),
        (.secondFactorFailures(tenant: .default, localID: "u1"), "mfa-user:u1"),
        (.secondFactorFailures(tenant: TenantID(rawValue: "acme-1a2b3"), localID: "u1"), "t:acme-1a2b3:mfa-user:u1"),
        (.totpEnrollmentTries(session: "abc"), "totp-enroll:" + abcHash),
        (.totpEnrollmentSpent(session: "abc"), "totp-enrolled:" + abcHash),
        (.passkeyChallenge("abc"), "passkey-challenge:" + abcHash),
        (.passkeyChallenges(clientIP: "192.0.2.1"), "pkstart:ip:192.0.2.1"),
        (.passkeyFailures(credentialID: "cred", clientIP: "192.0.2.1"), "pkfail:cred:cred:ip:192.0.2.1"),
        (.passkeyFailures(credentialID: "cred", clientIP: nil), "pkfail:cred:cred:ip:-"),
        (.passkeyFailures(clientIP: "192.0.2.1"), "pkfail:ip:192.0.2.1"),
        (.verifyClientCalls(clientIP: "192.0.2.1"), "verifyclient:ip:192.0.2.1"),
        (.webChallengeTokens(clientIP: "192.0.2.1"), "webchallenge:ip:192.0.2.1"),
        (.idpNonce(provider: "apple.com", nonce: "abc"), "idpnonce:apple.com:" + abcHash),
        (ticket(.receipt), "appreceipt:" + String(repeating: "07", count: 16)),
        (ticket(.challengeToken), "apptoken:" + String(repeating: "07", count: 16)),
        (ticket(.puzzle), "apppuzzle:" + String(repeating: "07", count: 16)),
    ]

    static func ticket(_ purpose: AppVerificationTicket.Purpose) -> CounterKey {
        .appVerification(
            AppVerificationTicket(
                purpose: purpose, projectID: "demo-flint", issuedAt: Instant(secondsSince1970: 1), nonce: Array(repeating: 7, count: 16)))
    }

    @Test("each constructor's raw key is today's literal")
    func rawKeys() {
        for (key, literal) in Self.pinned {
            #expect(key.rawValue == literal)
        }
    }

    @Test("no two namespaces give the same key for the same value")
    func distinct() {
        #expect(Set(Self.pinned.map(\.0)).count == Self.pinned.count)
    }

    @Test("a number counter's key, named before the number is known, is the number's own key")
    func numberCounter() {
        let counter = NumberCounter(tenant: .default, .wrongCodes(per: .day), windowStart: .epoch)
        #expect(counter.key(for: Self.phone) == .number(tenant: .default, Self.phone, .wrongCodes(per: .day)))
    }

    @Test("the hashed keys hash as the flows did: SHA-256 hex of the secret, as the provider nonce rule computes it")
    func hashes() {
        #expect(ProviderNonceRule.sha256Hex("abc") == Self.abcHash && storedTokenHash("abc") == Self.abcHash)
    }
}
