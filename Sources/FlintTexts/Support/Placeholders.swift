/// `{name}` placeholders in message templates (SMS texts, email subjects and bodies, action pages).
///
/// A placeholder is `{` + a name of ASCII letters, digits and `_` + `}`. Filling is one pass over the
/// template, so a value that itself contains `{code}` or `{link}` is inserted literally and never re-scanned.
/// Package-visible for FlintCore's checks of operator templates (``names(in:)``).
package enum Placeholders {
    /// Replaces each `{name}` that has an entry in `values`; unknown placeholders and stray braces are kept as written.
    static func fill(_ template: String, values: [String: String]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values[String(rest[afterOpen..<close])]
            {
                out += value
                rest = rest[rest.index(after: close)...]
            } else {
                out.append("{")
                rest = rest[afterOpen...]
            }
        }
        out += rest
        return out
    }

    /// The placeholder names in `template`, in order of appearance (with repeats): `{{link}}` names `link`,
    /// `{ link }` and `{a:b}` name nothing.
    package static func names(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), isName(rest[afterOpen..<close]) {
                names.append(String(rest[afterOpen..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                rest = rest[afterOpen...]
            }
        }
        return names
    }

    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
