import Testing

@testable import FlintTexts

@Suite("HTML escaping and placeholders")
struct HTMLEscapingTests {
    @Test(
        "The five HTML-significant characters are escaped, everything else kept",
        arguments: [
            ("plain text", "plain text"),
            ("", ""),
            ("<script>alert(\"x\")</script>", "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"),
            ("a & b", "a &amp; b"),
            ("it's", "it&#39;s"),
            ("&amp;", "&amp;amp;"),
            ("Café 日本 ✓ é\u{301}", "Café 日本 ✓ é\u{301}"),
            ("\" onmouseover='x'", "&quot; onmouseover=&#39;x&#39;"),
        ])
    func escapesHTML(input: String, expected: String) {
        #expect(HTMLEscaping.escape(input) == expected)
    }

    @Test("Line breaks become <br> after escaping")
    func escapesLines() {
        #expect(HTMLEscaping.escapeLines("Thanks,\nThe <A> team") == "Thanks,<br>\nThe &lt;A&gt; team")
        #expect(HTMLEscaping.escapeLines("one line") == "one line")
    }

    @Test(
        "Placeholder names are {identifier} tokens",
        arguments: [
            ("{app} and {link}", ["app", "link"]),
            ("{{link}}", ["link"]),
            ("{ link } {a:b} {} {", []),
            ("p{margin:0} {email}", ["email"]),
            ("{App}{link_2}", ["App", "link_2"]),
            ("no placeholders", []),
        ])
    func placeholderNames(template: String, expected: [String]) {
        #expect(Placeholders.names(in: template) == expected)
    }
}
