import Testing

@Suite struct PartialTests {
    static let examples: [Example] = [
        Example(name: "a partial is inserted", template: "[{{>p}}]", partials: ["p": "inside"], expected: "[inside]"),
        Example(name: "a missing partial renders nothing", template: "[{{>nope}}]", expected: "[]"),
        Example(name: "a partial sees the current context", template: "{{#user}}{{>card}}{{/user}}", data: #"{"user": {"name": "Ana"}}"#, partials: ["card": "<{{name}}>"], expected: "<Ana>"),
        Example(name: "a partial may recurse over data", template: "{{>tree}}", data: #"{"v": "a", "kids": [{"v": "b", "kids": [{"v": "c", "kids": []}]}]}"#, partials: ["tree": "{{v}}({{#kids}}{{>tree}}{{/kids}})"], expected: "a(b(c()))"),
        Example(name: "an inline partial keeps surrounding white space", template: "| {{>p}} |", partials: ["p": "\t*\t"], expected: "| \t*\t |"),
        Example(name: "an inline partial is not indented", template: "  {{x}}  {{>p}}\n", data: #"{"x": "|"}"#, partials: ["p": "1\n2"], expected: "  |  1\n2\n"),
        Example(name: "a standalone partial line takes its CRLF with it", template: "a\r\n{{>p}}\r\nb", partials: ["p": "P"], expected: "a\r\nPb"),
        Example(name: "a standalone partial needs no line before it", template: "  {{>p}}\nz", partials: ["p": "1\n2"], expected: "  1\n  2z"),
        Example(name: "a standalone partial needs no newline after it", template: "a\n  {{>p}}", partials: ["p": "1\n2"], expected: "a\n  1\n  2"),
        Example(name: "a standalone partial indents each of its lines", template: "<div>\n  {{>p}}\n</div>\n", partials: ["p": "<p>\n  hi\n</p>\n"], expected: "<div>\n  <p>\n    hi\n  </p>\n</div>\n"),
        Example(name: "indentation applies to template lines, not to data", template: "\\\n {{>p}}\n/\n", data: #"{"v": "<\n->"}"#, partials: ["p": "|\n{{{v}}}\n|\n"], expected: "\\\n |\n <\n->\n |\n/\n"),
        Example(name: "nested standalone partials add up their indentation", template: "a\n  {{>outer}}\nb\n", partials: ["outer": "o\n  {{>inner}}\no\n", "inner": "i1\ni2\n"], expected: "a\n  o\n    i1\n    i2\n  o\nb\n"),
        Example(name: "empty lines of an indented partial are indented too", template: "  {{>p}}\n", partials: ["p": "a\n\nb\n"], expected: "  a\n  \n  b\n"),
        Example(name: "white space inside the partial tag is ignored", template: "|{{> p }}|", partials: ["p": "[]"], expected: "|[]|"),
        Example(name: "a partial may live in a subfolder", template: "{{>parts/card}}", partials: ["parts/card": "card"], expected: "card"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}

@Suite struct DynamicNameTests {
    static let examples: [Example] = [
        Example(name: "the partial name comes from the context", template: "[{{>*kind}}]", data: #"{"kind": "photo"}"#, partials: ["photo": "P", "kind": "wrong"], expected: "[P]"),
        Example(name: "the asterisk is not part of the looked-up name", template: "[{{>*kind}}]", data: #"{"kind": "photo", "*kind": "text"}"#, partials: ["photo": "P", "text": "T"], expected: "[P]"),
        Example(name: "a missing name renders nothing", template: "[{{>*kind}}]", partials: ["kind": "wrong"], expected: "[]"),
        Example(name: "a name naming no template renders nothing", template: "[{{>*kind}}]", data: #"{"kind": "video"}"#, partials: ["photo": "P"], expected: "[]"),
        Example(name: "a non-string value renders nothing", template: "[{{>*kind}}]", data: #"{"kind": 3}"#, partials: ["3": "three"], expected: "[]"),
        Example(name: "dynamic names can be dotted", template: "{{>*item.kind}}", data: #"{"item": {"kind": "photo"}, "x": "!"}"#, partials: ["photo": "P{{x}}"], expected: "P!"),
        Example(name: "the whole dotted name resolves before use", template: "[{{>*a.b}}]", data: #"{"a": "c", "c": {"b": "p"}}"#, partials: ["p": "wrong"], expected: "[]"),
        Example(name: "a dotted dynamic name pushes no context", template: "{{#s1}}{{>*s2.which}}{{/s1}}", data: #"{"s1": {"v": "one"}, "s2": {"which": "p", "v": "two"}}"#, partials: ["p": "{{v}}"], expected: "one"),
        Example(name: "items pick their own partial", template: "{{#items}}{{>*kind}}{{/items}}", data: #"{"items": [{"kind": "t", "text": "hi"}, {"kind": "l", "url": "u"}]}"#, partials: ["t": "<{{text}}>", "l": "[{{url}}]"], expected: "<hi>[u]"),
        Example(name: "names are not dereferenced twice", template: "[{{>**a}}]", data: #"{"a": "b", "b": "p"}"#, partials: ["p": "wrong"], expected: "[]"),
        Example(name: "dynamic partials recurse", template: "{{>*t}}", data: #"{"t": "node", "v": "x", "kids": [{"v": "y", "kids": []}]}"#, partials: ["node": "{{v}}<{{#kids}}{{>*t}}{{/kids}}>"], expected: "x<y<>>"),
        Example(name: "a standalone dynamic partial is indented", template: "a\n  {{>*t}}\nb", data: #"{"t": "p"}"#, partials: ["p": "1\n2\n"], expected: "a\n  1\n  2\nb"),
        Example(name: "white space around the asterisk is ignored", template: "|{{> * t }}|", data: #"{"t": "p"}"#, partials: ["p": "[]"], expected: "|[]|"),
        Example(name: "parents may be dynamic too", template: "{{<*layout}}{{$body}}B{{/body}}{{/*layout}}", data: #"{"layout": "wide"}"#, partials: ["wide": "<{{$body}}default{{/body}}>"], expected: "<B>"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}
