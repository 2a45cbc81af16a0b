import Testing

@Suite struct CommentTests {
    static let examples: [Example] = [
        Example(name: "a comment renders nothing", template: "a{{! not shown }}b", expected: "ab"),
        Example(name: "a comment may span lines", template: "a{{!\n  many\n  lines\n}}b", expected: "ab"),
        Example(name: "a comment may hold braces", template: "a{{! {x} } { }}b", expected: "ab"),
        Example(name: "a standalone comment line disappears", template: "a\n{{! note }}\nb", expected: "a\nb"),
        Example(name: "an indented standalone comment line disappears", template: "a\n   {{! note }}\nb", expected: "a\nb"),
        Example(name: "a standalone comment with CRLF disappears", template: "a\r\n{{! note }}\r\nb", expected: "a\r\nb"),
        Example(name: "a standalone comment at the start disappears", template: "  {{! note }}\nb", expected: "b"),
        Example(name: "a standalone comment at the end disappears", template: "a\n  {{! note }}", expected: "a\n"),
        Example(name: "a multi-line standalone comment disappears", template: "a\n{{!\n one\n two\n}}\nb", expected: "a\nb"),
        Example(name: "an inline comment keeps the spaces around it", template: "  a {{! note }} b\n", expected: "  a  b\n"),
        Example(name: "a comment after text is not standalone", template: "a {{! note }}\nb", expected: "a \nb"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}

@Suite struct DelimiterTests {
    static let examples: [Example] = [
        Example(name: "new delimiters replace the braces", template: "{{=<% %>=}}(<%x%>) {{x}}", data: #"{"x": "v"}"#, expected: "(v) {{x}}"),
        Example(name: "delimiters may be special characters", template: "({{=| |=}}|x|)", data: #"{"x": "v"}"#, expected: "(v)"),
        Example(name: "delimiters may change back", template: "{{=[ ]=}}[x] [={{ }}=] {{x}}", data: #"{"x": "v"}"#, expected: "v  v"),
        Example(name: "new delimiters work for sections and triple", template: "{{=<% %>=}}<%#on%><%{html}%><%&html%><%/on%>", data: #"{"on": true, "html": "<b>"}"#, expected: "<b><b>"),
        Example(name: "new delimiters hold inside sections", template: "{{#on}}{{=| |=}}|x|{{/on}}|/on|", data: #"{"on": true, "x": "v"}"#, expected: "v{{/on}}"),
        Example(name: "partials start with the default delimiters", template: "{{=<% %>=}}<%> p%>", data: #"{"x": "v"}"#, partials: ["p": "[{{x}}]"], expected: "[v]"),
        Example(name: "a partial's delimiters stay in the partial", template: "{{>p}}|{{x}}", data: #"{"x": "v"}"#, partials: ["p": "{{=| |=}}|x|"], expected: "v|v"),
        Example(name: "a standalone delimiter line disappears", template: "a\n  {{=| |=}}\nb|x|", data: #"{"x": "v"}"#, expected: "a\nbv"),
        Example(name: "an inline delimiter change keeps the spaces", template: "  {{=| |=}}  |x|\n", data: #"{"x": "v"}"#, expected: "    v\n"),
        Example(name: "a standalone delimiter change at the end disappears", template: "a\n  {{=| |=}}", expected: "a\n"),
        Example(name: "white space inside the change is allowed", template: "{{= | | =}}|x|", data: #"{"x": "v"}"#, expected: "v"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}
