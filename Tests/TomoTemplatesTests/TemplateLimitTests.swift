import Dispatch
import Foundation
import Synchronization
import Testing
import TomoCore
@testable import TomoTemplates

/// Templates that would take the stack, the memory or the time without end are errors at a tag.
@Suite struct TemplateLimitTests {
    /// `depth` sections of each kind that nests, inside each other.
    static func nested(_ depth: Int, open: String, close: String) -> String {
        (0..<depth).map { "{{\(open)s\($0)}}" }.joined() + "x" + (0..<depth).reversed().map { "{{\(close)s\($0)}}" }.joined()
    }

    @Test(arguments: [("#", "/"), ("^", "/"), ("$", "/")])
    func sectionsNestedThirtyThousandDeepAreALocatedError(open: String, close: String) {
        let source = "line one\n" + Self.nested(30_000, open: open, close: close)
        let column = 1 + Parser.maximumNesting * "{{\(open)s0}}".count + (0..<Parser.maximumNesting).map { String($0).count - 1 }.reduce(0, +)
        let message = compileError(source)
        #expect(message?.hasPrefix("page.mustache:2:\(column): {{\(open)s\(Parser.maximumNesting)}} nests deeper than 100 levels") == true, "\(message ?? "no error")")
    }

    @Test func parentsNestedTooDeepAreALocatedError() {
        let source = String(repeating: "{{<p}}", count: 5_000) + String(repeating: "{{/p}}", count: 5_000)
        #expect(compileError(source)?.hasPrefix("page.mustache:1:\(1 + 6 * Parser.maximumNesting): {{<p}} nests deeper") == true)
    }

    @Test func nestingUpToTheLimitRenders() throws {
        let data = "{" + (0..<Parser.maximumNesting).map { "\"s\($0)\": true" }.joined(separator: ", ") + "}"
        #expect(try render(Self.nested(Parser.maximumNesting, open: "#", close: "/"), data: data) == "x")
    }

    /// The error rendering `page` with `partials` reports, from a worker thread as a build renders
    /// (whose stack is smaller than the main thread's).
    func renderError(_ page: String, partials: [String: String], context: JSONValue = .object([:]), limits: RenderLimits = .standard) throws -> Diagnostic? {
        let library = try TemplateLibrary(sources: partials)
        let template = try Template(source: page, name: "page")
        let result = Mutex<Diagnostic?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            guard index == 1 else { return }
            do throws(Diagnostic) {
                _ = try library.render(template, context: context, limits: limits)
            } catch {
                result.withLock { $0 = error }
            }
        }
        return result.withLock { $0 }
    }

    @Test(arguments: [
        // A partial that includes itself, directly, through a cycle, and through a parent; the
        // error points at one of the tags of the cycle.
        (["loop": "x\n  {{>loop}}"], ["loop:2:3"]),
        (["a": "{{>b}}", "b": "b\n{{#show}}{{>a}}{{/show}}"], ["a:1:1", "b:2:1", "b:2:10"]),
        (["layout": "{{$body}}{{/body}}{{<layout}}{{/layout}}"], ["layout:1:19"]),
    ])
    func partialsThatRecurseForeverAreALocatedError(partials: [String: String], places: [String]) throws {
        let error = try renderError("{{>\(partials.keys.sorted()[0])}}", partials: partials, context: ["show": true])
        #expect(places.contains(error?.location?.description ?? "none"), "\(String(describing: error))")
        #expect(error?.message.contains("nest deeper than \(RenderLimits.standard.depth) levels") == true)
    }

    @Test func aCycleThroughBlockArgumentsNamesEveryTagOfIt() throws {
        // The site's `note` takes the built-in layout, whose content block is the built-in
        // profile's argument, which includes `item`, which includes `note`: the innermost tag
        // may be a built-in one, the error still names the site's own.
        let error = try renderError("{{>profile}}", partials: [
            "profile": "{{<layout}}{{$content}}{{>item}}{{/content}}{{/layout}}",
            "layout": "<main>{{$content}}{{/content}}</main>",
            "item": "<li>{{>note}}</li>",
            "note": "{{<layout}}{{/layout}}",
        ])
        let message = error?.description ?? "no error"
        for tag in ["profile:1:24", "item:1:5", "note:1:1"] { #expect(message.contains(tag), "\(message)") }
    }

    @Test func sectionsInsideRecursivePartialsCountTowardsTheDepth() throws {
        // 100 sections per partial level would be 10,000 levels of recursion within the depth of partials alone.
        let sections = Self.nested(Parser.maximumNesting - 1, open: "#", close: "/").replacingOccurrences(of: "x", with: "{{>deep}}")
        let data = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<Parser.maximumNesting).map { ("s\($0)", JSONValue.bool(true)) }))
        let error = try renderError("{{>deep}}", partials: ["deep": sections], context: data)
        #expect(error?.message.contains("nest deeper than") == true)
    }

    /// `levels` partials, each including the next `copies` times: `copies^levels` renders.
    static func fanOut(levels: Int, copies: Int, leaf: String) -> [String: String] {
        var partials = ["p\(levels)": leaf]
        for level in 0..<levels {
            partials["p\(level)"] = String(repeating: "{{>p\(level + 1)}}", count: copies)
        }
        return partials
    }

    @Test func exponentialFanOutStopsAtTheOutputLimit() throws {
        let started = ContinuousClock.now
        // 2^40 copies of 1 KiB.
        let error = try renderError("{{>p0}}", partials: Self.fanOut(levels: 40, copies: 2, leaf: String(repeating: "x", count: 1024)))
        #expect(error?.message.contains("grows beyond 256 MiB") == true, "\(String(describing: error))")
        #expect(error?.location?.file.hasPrefix("p") == true)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    /// The standard limit of steps is 32 million, a minute in a debug build: these tests use fewer.
    static let fewSteps = RenderLimits(depth: RenderLimits.standard.depth, outputBytes: RenderLimits.standard.outputBytes, steps: 200_000)

    @Test func exponentialFanOutThatWritesNothingStopsAtTheStepLimit() throws {
        // 2^60 empty renders: no output limit would stop them.
        let error = try renderError("{{>p0}}", partials: Self.fanOut(levels: 60, copies: 2, leaf: "{{nothing}}"), limits: Self.fewSteps)
        #expect(error?.message.contains("more than 200000 steps") == true, "\(String(describing: error))")
        #expect(error?.location?.file.hasPrefix("p") == true)
    }

    @Test func sectionsRepeatingInsideEachOtherStopAtTheStepLimit() throws {
        // 50^20 renders of the innermost text.
        let source = "\n" + String(repeating: "{{#items}}", count: 20) + "x" + String(repeating: "{{/items}}", count: 20)
        let items = JSONValue.array((0..<50).map { _ in .object([:]) })
        let error = try renderError(source, partials: [:], context: ["items": items], limits: Self.fewSteps)
        #expect(error?.message.contains("more than 200000 steps") == true, "\(String(describing: error))")
        #expect(error?.location?.file == "page")
        #expect(error?.location?.line == 2)
    }
}
