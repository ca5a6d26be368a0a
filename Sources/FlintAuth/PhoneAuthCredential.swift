/// A phone credential: a verification ID with the code texted for it, or (inside a `credentialAlreadyInUse`
/// error) a number with the server's temporary proof that it was verified.
public final class PhoneAuthCredential: AuthCredential, @unchecked Sendable {
    // Immutable after init.
    enum Proof: Sendable {
        case verification(id: String, code: String)
        case temporaryProof(phoneNumber: String, proof: String)
    }

    let proof: Proof

    init(_ proof: Proof) {
        self.proof = proof
        super.init(provider: PhoneAuthProvider.id)
    }

    /// The request fields that prove the number, for `accounts:signInWithPhoneNumber`.
    func request(operation: VerifyPhoneNumberRequest.Operation, idToken: String? = nil) -> VerifyPhoneNumberRequest {
        switch proof {
        case .verification(let id, let code):
            return VerifyPhoneNumberRequest(sessionInfo: id, code: code, idToken: idToken, operation: operation)
        case .temporaryProof(let phoneNumber, let proof):
            return VerifyPhoneNumberRequest(
                idToken: idToken, temporaryProof: proof, phoneNumber: phoneNumber, operation: operation)
        }
    }
}
