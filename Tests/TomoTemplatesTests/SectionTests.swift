import Testing

@Suite struct SectionTests {
    static let examples: [Example] = [
        Example(name: "true shows the section", template: "<{{#on}}shown{{/on}}>", data: #"{"on": true}"#, expected: "<shown>"),
        Example(name: "false hides the section", template: "<{{#on}}shown{{/on}}>", data: #"{"on": false}"#, expected: "<>"),
        Example(name: "null hides the section", template: "<{{#on}}shown{{/on}}>", data: #"{"on": null}"#, expected: "<>"),
        Example(name: "a missing name hides the section", template: "<{{#on}}shown{{/on}}>", expected: "<>"),
        Example(name: "an empty list hides the section", template: "<{{#items}}x{{/items}}>", data: #"{"items": []}"#, expected: "<>"),
        Example(name: "an empty string hides the section", template: "<{{#bio}}has bio{{/bio}}>", data: #"{"bio": ""}"#, expected: "<>"),
        Example(name: "zero is a value and shows the section", template: "<{{#likes}}{{.}} likes{{/likes}}>", data: #"{"likes": 0}"#, expected: "<0 likes>"),
        Example(name: "a string is one value, not a list", template: "<{{#s}}[{{.}}]{{/s}}>", data: #"{"s": "abc"}"#, expected: "<[abc]>"),
        Example(name: "an object becomes the context", template: "{{#user}}{{name}} ({{handle}}){{/user}}", data: #"{"user": {"name": "Ana", "handle": "ana"}}"#, expected: "Ana (ana)"),
        Example(name: "names missing inside come from outer contexts", template: "{{#user}}{{name}}@{{site}}{{/user}}", data: #"{"site": "tomo", "user": {"name": "Ana"}}"#, expected: "Ana@tomo"),
        Example(name: "a list repeats the section per item", template: "{{#items}}<{{text}}>{{/items}}", data: #"{"items": [{"text": "a"}, {"text": "b"}, {"text": "c"}]}"#, expected: "<a><b><c>"),
        Example(name: "a list of scalars uses the dot", template: "{{#n}}({{.}}){{/n}}", data: #"{"n": [1, 2.5, "x", true]}"#, expected: "(1)(2.5)(x)(true)"),
        Example(name: "nested lists iterate with the dot", template: "{{#rows}}[{{#.}}{{.}}{{/.}}]{{/rows}}", data: #"{"rows": [[1, 2], ["a", "b"]]}"#, expected: "[12][ab]"),
        Example(name: "every level of the stack stays visible", template: "{{#a}}{{#b}}{{#c}}{{x}}{{y}}{{z}}{{/c}}{{/b}}{{/a}}", data: #"{"a": {"x": 1, "b": {"y": 2, "c": {"z": 3}}}}"#, expected: "123"),
        Example(name: "dotted names open sections", template: "{{#a.b.on}}yes{{/a.b.on}}{{#a.b.off}}no{{/a.b.off}}{{#a.x.y}}no{{/a.x.y}}", data: #"{"a": {"b": {"on": true, "off": false}}}"#, expected: "yes"),
        Example(name: "a section may appear twice", template: "{{#on}}1{{/on}}-{{#on}}2{{/on}}", data: #"{"on": true}"#, expected: "1-2"),
        Example(name: "nested sections inline keep their spaces", template: "| A {{#on}}B {{#on}}C{{/on}} D{{/on}} E |", data: #"{"on": true}"#, expected: "| A B C D E |"),
        Example(name: "hidden nested sections keep the outer spaces", template: "| A {{#on}}B {{#on}}C{{/on}} D{{/on}} E |", data: #"{"on": false}"#, expected: "| A  E |"),
        Example(name: "standalone section lines disappear", template: "<ul>\n{{#items}}\n  <li>{{.}}</li>\n{{/items}}\n</ul>\n", data: #"{"items": ["a", "b"]}"#, expected: "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n"),
        Example(name: "indented standalone lines disappear with their indentation", template: "a\n    {{#on}}\nb\n    {{/on}}\nc\n", data: #"{"on": true}"#, expected: "a\nb\nc\n"),
        Example(name: "CRLF line endings count as newlines", template: "a\r\n{{#on}}\r\nb\r\n{{/on}}\r\nc", data: #"{"on": true}"#, expected: "a\r\nb\r\nc"),
        Example(name: "a standalone tag needs no line before it", template: "  {{#on}}\nx{{/on}}\ny", data: #"{"on": true}"#, expected: "x\ny"),
        Example(name: "a standalone tag needs no newline after it", template: "x{{#on}}\ny\n  {{/on}}", data: #"{"on": true}"#, expected: "x\ny\n"),
        Example(name: "sections inline are not standalone", template: " {{#on}}A{{/on}}\n {{#on}}B{{/on}}\n", data: #"{"on": true}"#, expected: " A\n B\n"),
        Example(name: "a line with text is not standalone", template: "x {{#on}}\n{{/on}} y\n", data: #"{"on": true}"#, expected: "x \n y\n"),
        Example(name: "two section tags on one line are not standalone", template: "{{#on}}{{/on}}\nz", data: #"{"on": true}"#, expected: "\nz"),
        Example(name: "white space inside section tags is ignored", template: "|{{# on }}={{/ on }}|", data: #"{"on": true}"#, expected: "|=|"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }

    static let inverted: [Example] = [
        Example(name: "false shows an inverted section", template: "<{{^on}}off{{/on}}>", data: #"{"on": false}"#, expected: "<off>"),
        Example(name: "true hides an inverted section", template: "<{{^on}}off{{/on}}>", data: #"{"on": true}"#, expected: "<>"),
        Example(name: "null and missing show an inverted section", template: "<{{^a}}A{{/a}}{{^b}}B{{/b}}>", data: #"{"a": null}"#, expected: "<AB>"),
        Example(name: "an empty list shows an inverted section", template: "{{#posts}}{{.}}{{/posts}}{{^posts}}No posts yet.{{/posts}}", data: #"{"posts": []}"#, expected: "No posts yet."),
        Example(name: "a non-empty list hides an inverted section", template: "{{^posts}}none{{/posts}}", data: #"{"posts": [1]}"#, expected: ""),
        Example(name: "an object hides an inverted section", template: "<{{^o}}x{{/o}}>", data: #"{"o": {}}"#, expected: "<>"),
        Example(name: "dotted names work in inverted sections", template: "<{{^a.b}}none{{/a.b}}>", data: #"{"a": {}}"#, expected: "<none>"),
        Example(name: "standalone inverted lines disappear", template: "a\n  {{^off}}\nb\n  {{/off}}\nc", data: #"{"off": false}"#, expected: "a\nb\nc"),
        Example(name: "an inverted section pushes no context", template: "{{^missing}}{{name}}{{/missing}}", data: #"{"name": "n"}"#, expected: "n"),
    ]

    @Test(arguments: inverted)
    func rendersInverted(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}
