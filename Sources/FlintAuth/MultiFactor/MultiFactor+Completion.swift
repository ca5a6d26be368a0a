/// The completion-handler forms of `MultiFactor`'s methods, as FirebaseAuth's.
extension MultiFactor {
    /// A session to enrol a factor with.
    public func getSessionWithCompletion(_ completion: ((MultiFactorSession?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.session() }
    }

    /// A session to enrol a factor with (the same as `getSessionWithCompletion(_:)`).
    public func getSession(completion: ((MultiFactorSession?, (any Error)?) -> Void)?) {
        deliver(completion) { try await self.session() }
    }

    /// Enrols a second factor.
    public func enroll(with assertion: MultiFactorAssertion, displayName: String?, completion: (((any Error)?) -> Void)?) {
        deliver(completion) { try await self.enroll(with: assertion, displayName: displayName) }
    }

    /// Removes a second factor.
    public func unenroll(with factorInfo: MultiFactorInfo, completion: (((any Error)?) -> Void)?) {
        deliver(completion) { try await self.unenroll(with: factorInfo) }
    }

    /// Removes the second factor with enrolment ID `factorUID`.
    public func unenroll(withFactorUID factorUID: String, completion: (((any Error)?) -> Void)?) {
        deliver(completion) { try await self.unenroll(withFactorUID: factorUID) }
    }
}
