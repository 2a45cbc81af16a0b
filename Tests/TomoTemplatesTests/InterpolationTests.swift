import Testing

@Suite struct InterpolationTests {
    static let examples: [Example] = [
        Example(name: "text without tags is copied", template: "Plain {text} and } and { no: {x }}", expected: "Plain {text} and } and { no: {x }}"),
        Example(name: "a name is replaced by its value", template: "Hi, {{who}}!", data: #"{"who": "Mika"}"#, expected: "Hi, Mika!"),
        Example(name: "HTML-special characters are escaped", template: "{{text}}", data: #"{"text": "<b>Tom & \"Jerry\" 'n'</b>"}"#, expected: "&lt;b&gt;Tom &amp; &quot;Jerry&quot; &#39;n&#39;&lt;/b&gt;"),
        Example(name: "Japanese text passes through escaping unchanged", template: "{{text}}", data: #"{"text": "こんにちは <世界>"}"#, expected: "こんにちは &lt;世界&gt;"),
        Example(name: "triple mustache does not escape", template: "{{{html}}}", data: #"{"html": "<i>&</i>"}"#, expected: "<i>&</i>"),
        Example(name: "ampersand does not escape", template: "{{&html}}", data: #"{"html": "<i>&</i>"}"#, expected: "<i>&</i>"),
        Example(name: "integers render as written", template: "{{a}} {{{b}}} {{&c}}", data: #"{"a": 42, "b": -7, "c": 0}"#, expected: "42 -7 0"),
        Example(name: "decimals render as JSON shows them", template: "{{a}} {{b}} {{c}} {{d}}", data: #"{"a": 1.5, "b": 2.0, "c": 0.125, "d": 1.210}"#, expected: "1.5 2 0.125 1.21"),
        Example(name: "booleans render as words", template: "{{yes}}/{{no}}", data: #"{"yes": true, "no": false}"#, expected: "true/false"),
        Example(name: "null renders nothing", template: "[{{nothing}}]", data: #"{"nothing": null}"#, expected: "[]"),
        Example(name: "a missing name renders nothing", template: "[{{missing}}][{{{missing}}}][{{&missing}}]", expected: "[][][]"),
        Example(name: "dotted names reach into objects", template: "{{user.name}} == {{#user}}{{name}}{{/user}}", data: #"{"user": {"name": "Ana"}}"#, expected: "Ana == Ana"),
        Example(name: "dotted names go any depth", template: "{{a.b.c.d}}", data: #"{"a": {"b": {"c": {"d": "deep"}}}}"#, expected: "deep"),
        Example(name: "a broken chain renders nothing", template: "[{{a.b.c}}]", data: #"{"a": {}}"#, expected: "[]"),
        Example(name: "later parts resolve only inside the earlier result", template: "[{{a.b.name}}]", data: #"{"a": {"b": {}}, "name": "outer"}"#, expected: "[]"),
        Example(name: "the first part resolves through the context stack", template: "{{#inner}}{{outer.name}}{{/inner}}", data: #"{"outer": {"name": "found"}, "inner": {"x": 1}}"#, expected: "found"),
        Example(name: "the nearest context wins for the first part", template: "{{#a}}{{b.c}}{{/a}}", data: #"{"a": {"b": {}}, "b": {"c": "wrong"}}"#, expected: ""),
        Example(name: "a leading dot looks only at the current context", template: "{{#a}}[{{.name}}]{{/a}}{{#b}}[{{.name}}]{{/b}}", data: #"{"a": {}, "b": {"name": "B"}, "name": "root"}"#, expected: "[][B]"),
        Example(name: "a dot is the current value", template: "{{#word}}{{.}}{{/word}}", data: #"{"word": "solo"}"#, expected: "solo"),
        Example(name: "a dot at the top is the whole context", template: "{{.}}", data: #""just text""#, expected: "just text"),
        Example(name: "dotted keys are never one key", template: "[{{a.b}}]", data: #"{"a.b": "no"}"#, expected: "[]"),
        Example(name: "surrounding white space is kept", template: "| {{x}} |\n  {{x}}\n", data: #"{"x": "-"}"#, expected: "| - |\n  -\n"),
        Example(name: "white space inside the tag is ignored", template: "|{{ x }}|{{{ x }}}|{{& x }}|", data: #"{"x": "<"}"#, expected: "|&lt;|<|<|"),
        Example(name: "lists and objects interpolate as nothing", template: "[{{list}}][{{object}}]", data: #"{"list": [1], "object": {"a": 1}}"#, expected: "[][]"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}
