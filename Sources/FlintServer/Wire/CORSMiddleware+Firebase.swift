import HTTPTypes
import Hummingbird

extension CORSMiddleware {
    /// The request headers the Firebase Web SDK sends cross-origin (preflights must allow every one of them).
    static var firebaseRequestHeaders: [HTTPField.Name] {
        [
            .contentType, .authorization, HTTPField.Name("X-Goog-Api-Key")!, HTTPField.Name("X-Firebase-Locale")!,
            HTTPField.Name("X-Client-Version")!, HTTPField.Name("X-Firebase-gmpid")!, HTTPField.Name("X-Firebase-Client")!,
            HTTPField.Name("X-Firebase-AppCheck")!,
        ]
    }

    /// CORS as Google's front end answers it: any origin (the API key, not the origin, identifies the app), the Web
    /// SDK's headers, every method Flint routes; preflights are cached for an hour.
    static func firebase() -> CORSMiddleware {
        CORSMiddleware(
            allowOrigin: .originBased, allowHeaders: firebaseRequestHeaders, allowMethods: [.get, .post, .patch, .delete, .options],
            maxAge: .seconds(3600))
    }
}
