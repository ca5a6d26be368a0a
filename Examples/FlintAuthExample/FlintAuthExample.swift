import FlintAuth
import Foundation

/// A terminal walk through FlintAuth's phone and email-link sign-in against a running `flint serve`.
@main
struct FlintAuthExample {
    static func main() async {
        let prompt = Prompt()
        let options: ExampleOptions
        do {
            options = try ExampleOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("error: \(error.message)\n\n\(ExampleOptions.usage)\n".utf8))
            exit(2)
        }
        if options.help {
            prompt.write(ExampleOptions.usage + "\n")
            return
        }
        FlintApp.configure(options: FlintOptions(apiKey: options.apiKey, projectID: options.projectID, baseURL: options.url))
        let auth = Auth.auth()
        do {
            let flow = try options.flow ?? chooseFlow(prompt)
            let user: User
            switch flow {
            case .phone: user = try await phoneSignIn(auth, prompt)
            case .emailLink: user = try await emailLinkSignIn(auth, prompt, continueURL: options.continueURL)
            }
            let token = try await user.getIDTokenResult()
            prompt.write(ClaimsText.describe(uid: user.uid, claims: token.claims))
            try auth.signOut()
        } catch is EndOfInput {
            prompt.write("No more input; stopping.\n")
            exit(1)
        } catch {
            let name = (error as NSError).userInfo[AuthErrors.userInfoNameKey] as? String ?? "\(type(of: error))"
            FileHandle.standardError.write(Data("Sign-in failed (\(name)): \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }

    static func chooseFlow(_ prompt: Prompt) throws(EndOfInput) -> ExampleOptions.Flow {
        while true {
            switch try prompt.ask("Sign in with 1) phone or 2) email link?") {
            case "1", "phone": return .phone
            case "2", "email", "email-link", "email link": return .emailLink
            default: prompt.write("Please answer 1 or 2.\n")
            }
        }
    }

    static func phoneSignIn(_ auth: Auth, _ prompt: Prompt) async throws -> User {
        let number = try prompt.ask("Phone number (E.164, such as +16505550101):")
        let provider = PhoneAuthProvider.provider(auth: auth)
        let verificationID = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
        prompt.write("Code sent. (In dev mode, read it at /emulator/v1/projects/<project>/verificationCodes.)\n")
        let code = try prompt.ask("Code:")
        let credential = provider.credential(withVerificationID: verificationID, verificationCode: code)
        return try await auth.signIn(with: credential).user
    }

    static func emailLinkSignIn(_ auth: Auth, _ prompt: Prompt, continueURL: URL) async throws -> User {
        let email = try prompt.ask("Email address:")
        let settings = ActionCodeSettings()
        settings.url = continueURL
        settings.handleCodeInApp = true
        try await auth.sendSignInLink(toEmail: email, actionCodeSettings: settings)
        prompt.write("Link sent. (In dev mode, read it at /emulator/v1/projects/<project>/oobCodes.)\n")
        while true {
            let link = try prompt.ask("Paste the link from the email:")
            if auth.isSignIn(withEmailLink: link) {
                return try await auth.signIn(withEmail: email, link: link).user
            }
            prompt.write("That is not an email sign-in link (it needs mode=signIn and an oobCode).\n")
        }
    }
}
