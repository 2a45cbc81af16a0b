import Testing

@Suite struct InheritanceTests {
    static let layout = "<title>{{$title}}Tomo{{/title}}</title>\n<main>\n{{$content}}\nempty\n{{/content}}\n</main>\n"

    static let examples: [Example] = [
        Example(name: "a block outside a parent renders its default", template: "[{{$title}}Default{{/title}}]", expected: "[Default]"),
        Example(name: "block defaults render tags", template: "{{$b}}{{x}} {{{x}}} {{#on}}on{{/on}}{{^off}}off{{/off}}{{/b}}", data: #"{"x": "<>", "on": true, "off": false}"#, expected: "&lt;&gt; <> onoff"),
        Example(name: "data is never parsed as a template", template: "{{$b}}{{x}}{{/b}}", data: #"{"x": "{{y}}", "y": "no"}"#, expected: "{{y}}"),
        Example(name: "an inline block keeps the newline after it", template: "{{<p}}{{$b}}\nx\n{{/b}}{{/p}}", partials: ["p": "<{{$b}}d{{/b}}>\n"], expected: "<x\n>\n"),
        Example(name: "a parent renders with its defaults", template: "{{<layout}}{{/layout}}", partials: ["layout": layout], expected: "<title>Tomo</title>\n<main>\nempty\n</main>\n"),
        Example(name: "a page overrides the layout's blocks", template: "{{<layout}}\n{{$title}}Alice{{/title}}\n{{$content}}\n<h1>Alice</h1>\n{{/content}}\n{{/layout}}\n", partials: ["layout": layout], expected: "<title>Alice</title>\n<main>\n<h1>Alice</h1>\n</main>\n"),
        Example(name: "data does not override a block argument", template: "{{<p}}{{$v}}from page{{/v}}{{/p}}", data: #"{"v": "from data"}"#, partials: ["p": "{{$v}}from parent{{/v}}"], expected: "from page"),
        Example(name: "data does not override a block default", template: "{{<p}}{{/p}}", data: #"{"v": "from data"}"#, partials: ["p": "{{$v}}from parent{{/v}}"], expected: "from parent"),
        Example(name: "only the blocks passed are replaced", template: "{{<p}}{{$b}}B!{{/b}}{{/p}}", partials: ["p": "{{$a}}a{{/a}}, {{$b}}b{{/b}}"], expected: "a, B!"),
        Example(name: "each use of a parent gets its own arguments", template: "{{<p}}{{$x}}1{{/x}}{{/p}} {{<p}}{{$x}}2{{/x}}{{/p}}", partials: ["p": "|{{$x}}.{{/x}}{{$y}}-{{/y}}|"], expected: "|1-| |2-|"),
        Example(name: "a parent is a partial when nothing is passed", template: "{{>p}}|{{<p}}{{/p}}", partials: ["p": "{{$x}}default{{/x}}"], expected: "default|default"),
        Example(name: "text inside a parent outside blocks is ignored", template: "{{<p}} ignored {{$x}}kept{{/x}} ignored {{/p}}", partials: ["p": "{{$x}}default{{/x}}"], expected: "kept"),
        Example(name: "the outermost argument wins across levels", template: "{{<mid}}{{$a}}page{{/a}}{{/mid}}", partials: ["mid": "{{<base}}{{$a}}mid{{/a}}{{/base}}", "base": "{{$a}}base{{/a}}"], expected: "page"),
        Example(name: "a middle level's argument wins over the base", template: "{{<mid}}{{/mid}}", partials: ["mid": "{{<base}}{{$a}}mid{{/a}}{{/base}}", "base": "{{$a}}base{{/a}}"], expected: "mid"),
        Example(name: "arguments reach parents used inside defaults", template: "{{<p}}{{$foo}}over{{/foo}}{{/p}}", partials: ["p": "{{$foo}}p{{/foo}} {{$bar}}{{<q}}{{/q}}{{/bar}}", "q": "{{$foo}}q{{/foo}} {{<p}}{{$bar}}stop{{/bar}}{{/p}}"], expected: "over over over stop"),
        Example(name: "an argument renders in the context where the block stands", template: "{{<p}}{{$b}}I say {{fruit}}.{{/b}}{{/p}}", data: #"{"fruit": "apples", "inner": {"fruit": "pears"}}"#, partials: ["p": "{{#inner}}{{$b}}You say {{fruit}}.{{/b}}{{/inner}}"], expected: "I say pears."),
        Example(name: "a standalone parent indents the parent's lines", template: "Hi,\n  {{<p}}{{/p}}\n", partials: ["p": "one\ntwo\n"], expected: "Hi,\n  one\n  two\n"),
        Example(name: "a block keeps the indentation of where it stands", template: "{{<p}}{{$b}}hammer{{/b}}{{/p}}", partials: ["p": "stop:\n  {{$b}}listen{{/b}}\n"], expected: "stop:\n  hammer\n"),
        Example(name: "a multi-line argument takes the block's indentation", template: "{{<p}}{{$b}}\none\ntwo{{/b}}\n{{/p}}\n", partials: ["p": "Hi,\n  {{$b}}{{/b}}\n"], expected: "Hi,\n  one\n  two\n"),
        Example(name: "an argument's own indentation is replaced", template: "{{<p}}{{$b}}\n    one\n    two\n{{/b}}{{/p}}\n", partials: ["p": "Hi,\n  {{$b}}\n  {{/b}}\n"], expected: "Hi,\n  one\n  two\n"),
        Example(name: "a standalone block takes its default's indentation", template: "{{<p}}{{$b}}\none\ntwo\n{{/b}}{{/p}}\n", partials: ["p": "Hi,\n{{$b}}\n  default\n{{/b}}\n"], expected: "Hi,\n  one\n  two\n"),
        // The spec's "Nested block reindentation": `nested` is indented two spaces inside
        // `block`, whose own four-space... two-space indentation goes with its argument.
        Example(name: "a nested block is indented relative to the block around it", template: "{{<parent}}{{$nested}}\nthree\n{{/nested}}{{/parent}}\n", partials: ["parent": "{{<grandparent}}{{$block}}\n  one\n  {{$nested}}\n    two\n  {{/nested}}\n{{/block}}{{/grandparent}}\n", "grandparent": "{{$block}}default{{/block}}"], expected: "one\n  three\n"),
        Example(name: "newlines inside an argument are kept", template: "{{<p}}{{$b}}\nline\n\n:)\n{{/b}}{{/p}}", partials: ["p": "{{$b}}x{{/b}}"], expected: "line\n\n:)\n"),
        Example(name: "a missing parent renders nothing", template: "[{{<nope}}{{$b}}x{{/b}}{{/nope}}]", expected: "[]"),
    ]

    @Test(arguments: examples)
    func renders(_ example: Example) throws {
        #expect(try render(example.template, data: example.data, partials: example.partials) == example.expected)
    }
}
