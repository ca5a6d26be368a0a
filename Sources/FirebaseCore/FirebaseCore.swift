@_exported import typealias FlintAuth.FirebaseApp
@_exported import typealias FlintAuth.FirebaseOptions
// `import FirebaseCore` in an app brings in the app and options types FlintAuth defines, under FirebaseCore's names
// (`FirebaseApp.configure()`, `FirebaseOptions(googleAppID:gcmSenderID:)`) and Flint's.
@_exported import class FlintAuth.FlintApp
@_exported import class FlintAuth.FlintOptions
