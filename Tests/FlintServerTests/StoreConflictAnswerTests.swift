import FlintCore
import FlintServerTestSupport
import FlintStore
import Testing

@testable import FlintServer

@Suite("Store conflicts: what collided answers Firebase's error through one mapping")
struct StoreConflictAnswerTests {
    @Test(
        "each unique thing an account's write can collide on has its Firebase code",
        arguments: [
            (StoreConflict.localID, "DUPLICATE_LOCAL_ID"), (.email, "EMAIL_EXISTS"), (.phoneNumber, "PHONE_NUMBER_EXISTS"),
            (.federatedIdentity, "FEDERATED_USER_ID_ALREADY_LINKED"), (.secondFactor, "DUPLICATE_MFA_ENROLLMENT_ID"),
            (.passkey, "PASSKEY_ENROLLMENT_EXISTS"),
        ])
    func accountConflicts(conflict: StoreConflict, code: String) {
        #expect(AuthError(conflict).code == code)
    }

    @Test("operators' credentials and console operators are no account's: a conflict on them is the server's fault")
    func operatorConflicts() {
        for conflict in [StoreConflict.credentialName, .keyID, .operatorEmail] {
            #expect(AuthError(conflict) == .internalError)
        }
    }
}
