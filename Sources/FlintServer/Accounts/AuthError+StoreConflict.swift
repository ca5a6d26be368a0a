import FlintCore
import FlintStore

extension AuthError {
    /// Firebase's answer to an account's write that another account's unique value refused
    /// (``FlintStore/StoreError/conflict(_:)``): the one mapping from what collided to the wire's error.
    ///
    /// Operators' credentials and the console's operators are never written by an account's write: a conflict on
    /// them here is a fault of the server (`INTERNAL_ERROR`).
    init(_ conflict: StoreConflict) {
        switch conflict {
        case .localID: self = AuthError(code: "DUPLICATE_LOCAL_ID")
        case .email: self = .emailExists
        case .phoneNumber: self = .phoneNumberExists
        case .federatedIdentity: self = .federatedUserIDAlreadyLinked
        case .secondFactor: self = AuthError(code: "DUPLICATE_MFA_ENROLLMENT_ID")
        case .passkey: self = .passkeyExists
        case .credentialName, .keyID, .operatorEmail: self = .internalError
        }
    }
}
