import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The HTML of Flint's web challenge (`/__/auth/handler?authType=verifyApp…`), the fallback of app verification
/// when no silent push arrives. One button (the human step) runs a small proof of work (FlintCore's `ProofOfWork`)
/// in an inline script and posts the form; the server then sends the browser back to the app with a token.
///
/// The page loads nothing from elsewhere. Its only script is inline and allowed by its SHA-256 in the
/// Content-Security-Policy (``contentSecurityPolicy(callbackScheme:)``), so no other script can run.
package enum ChallengePage {
    /// What the page needs to render.
    package struct Form: Sendable {
        /// Where the form posts (the page's own path).
        package var action: String
        /// The request's parameters, carried back by the POST.
        package var hidden: [(name: String, value: String)]
        /// The sealed puzzle.
        package var puzzle: String
        /// Leading zero bits the solution needs.
        package var difficulty: Int
        /// The app name shown above the title.
        package var appName: String
        /// The page language (`hl`), already validated.
        package var language: String
        /// A message shown above the button (a failed earlier try), or `nil`.
        package var error: String?

        /// Creates the page's inputs.
        package init(
            action: String, hidden: [(name: String, value: String)], puzzle: String, difficulty: Int, appName: String, language: String,
            error: String? = nil
        ) {
            self.action = action
            self.hidden = hidden
            self.puzzle = puzzle
            self.difficulty = difficulty
            self.appName = appName
            self.language = language
            self.error = error
        }
    }

    /// The inline script (public so tests can find it in the page): on submit, find the solution with WebCrypto's SHA-256, put it in the form, post.
    package static let script = """
        (function(){var f=document.getElementById("challenge"),s=document.getElementById("status");\
        f.addEventListener("submit",function(e){if(f.elements.solution.value){return;}e.preventDefault();\
        if(!(window.crypto&&crypto.subtle)){s.textContent=f.getAttribute("data-insecure");return;}\
        f.querySelector("button").disabled=true;s.textContent=f.getAttribute("data-checking");\
        var p=f.elements.puzzle.value,b=parseInt(f.getAttribute("data-difficulty"),10),t=new TextEncoder(),n=0;\
        function z(a){var c=0;for(var i=0;i<a.length;i++){if(a[i]===0){c+=8;continue;}c+=Math.clz32(a[i])-24;break;}return c;}\
        function step(){crypto.subtle.digest("SHA-256",t.encode(p+":"+n)).then(function(d){\
        if(z(new Uint8Array(d))>=b){f.elements.solution.value=String(n);f.submit();}else{n++;step();}});}step();});})();
        """

    /// `'sha256-…'` of ``script``, for `script-src`.
    package static let scriptHash = "'sha256-\(Data(SHA256.hash(data: Array(script.utf8))).base64EncodedString())'"

    /// The policy of the challenge page: nothing external, the one hashed script, form posts to this origin, and the
    /// app's URL scheme (the POST's 303 goes there, and browsers apply `form-action` to redirects).
    package static func contentSecurityPolicy(callbackScheme: String?) -> String {
        let formAction = callbackScheme.map { "'self' \($0):" } ?? "'self'"
        return "default-src 'none'; style-src 'unsafe-inline'; script-src \(scriptHash); form-action \(formAction); "
            + "frame-ancestors 'none'; base-uri 'none'"
    }

    /// The challenge page, in the best of the built-in locales for the form's `language` (its messages for the script
    /// travel as `data-` attributes, so the hashed script stays one constant).
    package static func challenge(_ form: Form) -> String {
        let (locale, words) = ActionPageStrings.negotiate([form.language])
        let escape = HTMLEscaping.escape
        var body = "<p>\(escape(words.verifyAppBody))</p>\n"
        if let error = form.error { body += "<p class=\"error\" role=\"alert\">\(escape(error))</p>\n" }
        body +=
            "<form id=\"challenge\" method=\"post\" action=\"\(escape(form.action))\" data-difficulty=\"\(form.difficulty)\" "
            + "data-checking=\"\(escape(words.checking))\" data-insecure=\"\(escape(words.needsSecureConnection))\">\n"
        for field in form.hidden + [("puzzle", form.puzzle)] {
            body += "<input type=\"hidden\" name=\"\(HTMLEscaping.escape(field.name))\" value=\"\(HTMLEscaping.escape(field.value))\">\n"
        }
        body += "<input type=\"hidden\" name=\"solution\" value=\"\">\n"
        body += "<button class=\"button\" type=\"submit\">\(escape(words.continueButton))</button>\n</form>\n"
        body += "<p id=\"status\" class=\"hint\" aria-live=\"polite\"></p>\n"
        body += "<noscript><p class=\"error\">\(escape(words.needsJavaScript))</p></noscript>\n"
        body += "<script>\(script)</script>\n"
        return document(language: locale, app: form.appName, title: escape(words.verifyAppTitle), body: body)
    }

    /// A page explaining why the challenge cannot run (bad or missing parameters).
    package static func failure(appName: String, message: String) -> String {
        document(language: "en", app: appName, title: "This link cannot be used", body: "<p class=\"error\">\(HTMLEscaping.escape(message))</p>\n")
    }

    /// The action page's shell without its `<meta>` policy: the response's `Content-Security-Policy` header (which
    /// allows this page's script by its hash) is the policy.
    static func document(language: String, app: String, title: String, body: String) -> String {
        ActionPage.document(locale: language, app: app, title: title, body: body, metaPolicy: false)
    }
}
