import FirebaseCore

// An app delegate that imports only FirebaseCore, as Firebase's setup guide writes it: the app and options types and
// their members must be reachable through `import FirebaseCore` alone.

/// `application(_:didFinishLaunchingWithOptions:)`'s Firebase lines.
func didFinishLaunching() {
    FirebaseApp.configure()
    guard let options = FirebaseOptions(contentsOfFile: "GoogleService-Info.plist") else { return }
    options.bundleID = "com.example.app"
    FirebaseApp.configure(name: "fromFile", options: options)
    _ = FirebaseApp.app()?.options.clientID
}
