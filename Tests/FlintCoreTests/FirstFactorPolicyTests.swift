import FlintCore
import Testing

@Suite("First-factor policy: tokens, challenge or refusal")
struct FirstFactorPolicyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var state: ProjectConfig.MFAState
        var attempt: FirstFactorPolicy.Attempt
        var expected: FirstFactorPolicy.Decision
        var testDescription: String
        /// The first factor's own state (`flint.mfaFirstFactors`), if any.
        var own: ProjectConfig.MFAState? = nil
    }

    static let cases: [Case] = [
        Case(
            state: .disabled, attempt: .init(provider: "phone", hasEnrollments: true, phoneBecomesFirstFactor: true), expected: .tokens,
            testDescription: "MFA disabled: every first factor gets tokens"),
        Case(
            state: .enabled, attempt: .init(provider: "password", hasEnrollments: false), expected: .tokens,
            testDescription: "enabled, no factors: tokens"),
        Case(
            state: .enabled, attempt: .init(provider: "password", hasEnrollments: true), expected: .challenge(enrollmentRequired: false),
            testDescription: "enabled, factors: challenged"),
        Case(
            state: .enabled, attempt: .init(provider: "password", hasEnrollments: true, linking: true), expected: .tokens,
            testDescription: "a signed-in session linking a credential keeps its tokens"),
        Case(
            state: .enabled, attempt: .init(provider: "phone", hasEnrollments: true, phoneBecomesFirstFactor: true),
            expected: .refuse(.unsupportedFirstFactor), testDescription: "phone sign-in of an account with factors is refused"),
        Case(
            state: .enabled, attempt: .init(provider: "phone", hasEnrollments: true, linking: true, phoneBecomesFirstFactor: true),
            expected: .refuse(.unsupportedFirstFactor), testDescription: "linking a number onto an account with factors is refused"),
        Case(
            state: .mandatory, attempt: .init(provider: "password", hasEnrollments: false), expected: .challenge(enrollmentRequired: true),
            testDescription: "MANDATORY, no factors: challenged to enrol"),
        Case(
            state: .mandatory, attempt: .init(provider: "password", hasEnrollments: false, linking: true),
            expected: .challenge(enrollmentRequired: true), testDescription: "MANDATORY: linking gives no tokens before enrolment either"),
        Case(
            state: .mandatory, attempt: .init(provider: "phone", hasEnrollments: false, phoneBecomesFirstFactor: true),
            expected: .refuse(FirstFactorPolicy.phoneFirstFactorInMandatoryProject),
            testDescription: "MANDATORY: a phone first factor is refused (it could never enrol)"),
        Case(
            state: .mandatory, attempt: .init(provider: "anonymous", hasEnrollments: false), expected: .tokens,
            testDescription: "MANDATORY: anonymous accounts (which cannot enrol) get tokens"),
        Case(
            state: .mandatory, attempt: .init(provider: "password", hasEnrollments: true), expected: .challenge(enrollmentRequired: false),
            testDescription: "MANDATORY, factors: challenged"),
        Case(
            state: .enabled, attempt: .init(provider: "custom", hasEnrollments: true), expected: .tokens,
            testDescription: "a custom token of an account with factors gets tokens (the backend vouches, as in Firebase)"),
        Case(
            state: .mandatory, attempt: .init(provider: "custom", hasEnrollments: false), expected: .tokens,
            testDescription: "MANDATORY: custom tokens (which cannot enrol) get tokens"),
        Case(
            state: .enabled, attempt: .init(provider: "google.com", hasEnrollments: true), expected: .tokens,
            testDescription: "a first factor whose own state is DISABLED is not asked for the second factor", own: .disabled),
        Case(
            state: .enabled, attempt: .init(provider: "password", hasEnrollments: false), expected: .challenge(enrollmentRequired: true),
            testDescription: "a first factor whose own state is MANDATORY must enrol in an ENABLED project", own: .mandatory),
        Case(
            state: .mandatory, attempt: .init(provider: "google.com", hasEnrollments: false), expected: .tokens,
            testDescription: "a first factor whose own state is ENABLED need not enrol in a MANDATORY project", own: .enabled),
        Case(
            state: .disabled, attempt: .init(provider: "password", hasEnrollments: false), expected: .tokens,
            testDescription: "MFA disabled: a first factor's own MANDATORY does nothing", own: .mandatory),
        Case(
            state: .enabled, attempt: .init(provider: "phone", hasEnrollments: true, phoneBecomesFirstFactor: true),
            expected: .refuse(.unsupportedFirstFactor), testDescription: "a phone first factor of an account with factors stays refused",
            own: .disabled),
    ]

    @Test("decides", arguments: cases)
    func decides(_ c: Case) {
        #expect(FirstFactorPolicy.decide(c.attempt, state: c.state, firstFactorState: c.own) == c.expected)
    }
}
