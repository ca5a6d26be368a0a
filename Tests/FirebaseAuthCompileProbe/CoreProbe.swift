import FirebaseAuth
import FirebaseCore
import Foundation
import Testing

@Test func placeholder() {}
