import Foundation

/// An element as a selector sees it: its tag and classes (`div.icon.icon-placeholder`).
public struct Element: Sendable {
    public var tag: String
    public var classes: Set<String>

    public init(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        tag = parts.first ?? ""
        classes = Set(parts.dropFirst())
    }
}

/// One selector of a rule of the style sheet (rules inside `@media` count as applying: the
/// tests ask what can win at some width), with the rule's declarations in order.
public struct StyleRule: Sendable {
    public var selector: String
    public var declarations: [(property: String, value: String)]
    /// The prelude of the `@media` block the rule is in (`(prefers-color-scheme: dark)`), nil outside one.
    public var media: String?

    /// A winning declaration and the selector it came from.
    public struct Declaration: Sendable {
        public var selector: String
        public var value: String
    }

    /// Rules of a style sheet without comments; an at-rule's block is read for the rules inside.
    public static func parse(_ css: String) -> [StyleRule] {
        var text = css
        while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        var rules: [StyleRule] = []
        var prelude = ""
        var body = ""
        var inBody = false
        var media: String?
        for character in text {
            switch (character, inBody) {
            case ("{", false):
                let trimmed = prelude.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.hasPrefix("@") {
                    media = trimmed.hasPrefix("@media") ? String(trimmed.dropFirst(6)).trimmingCharacters(in: .whitespaces) : trimmed
                    prelude = ""
                } else {
                    inBody = true
                }
            case ("}", true):
                let declarations = body.split(separator: ";").compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (line[..<colon].trimmingCharacters(in: .whitespacesAndNewlines),
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
                }
                for selector in prelude.split(separator: ",") {
                    rules.append(StyleRule(selector: selector.trimmingCharacters(in: .whitespacesAndNewlines), declarations: declarations, media: media))
                }
                prelude = ""
                body = ""
                inBody = false
            case ("}", false):
                prelude = ""  // the end of an at-rule's block
                media = nil
            case (_, true):
                body.append(character)
            default:
                prelude.append(character)
            }
        }
        return rules
    }

    /// The declaration of `property` that wins for the last element of `path` (its ancestors
    /// before it): highest specificity, then the later rule. `background-color` and
    /// `background-image` count as `background`.
    public static func winner(of property: String, for path: [Element], in rules: [StyleRule]) -> Declaration? {
        var best: (specificity: [Int], selector: String, value: String)?
        for rule in rules where rule.matches(path) {
            for declaration in rule.declarations
            where declaration.property == property || (property == "background" && declaration.property.hasPrefix("background-")) {
                // Rules come in file order: a later one wins unless it is less specific.
                if let current = best, rule.specificity.lexicographicallyPrecedes(current.specificity) { continue }
                best = (rule.specificity, rule.selector, declaration.value)
            }
        }
        return best.map { Declaration(selector: $0.selector, value: $0.value) }
    }

    private var compounds: [Element] {
        selector.split(separator: " ").filter { $0 != ">" }.map { Element(String($0)) }
    }

    /// (classes, tags): what ranks two selectors of this style sheet (it has no ids).
    public var specificity: [Int] {
        [compounds.reduce(0) { $0 + $1.classes.count }, compounds.reduce(0) { $0 + ($1.tag.isEmpty || $1.tag == "*" ? 0 : 1) }]
    }

    /// Descendant combinators only, as this style sheet uses; pseudo-classes never match.
    public func matches(_ path: [Element]) -> Bool {
        var wanted = compounds
        guard !selector.contains(":"), let last = path.last, !wanted.isEmpty else { return false }
        func fits(_ compound: Element, _ element: Element) -> Bool {
            (compound.tag.isEmpty || compound.tag == "*" || compound.tag == element.tag) && compound.classes.isSubset(of: element.classes)
        }
        guard fits(wanted.removeLast(), last) else { return false }
        var ancestors = path.dropLast()
        while let compound = wanted.popLast() {
            guard let match = ancestors.lastIndex(where: { fits(compound, $0) }) else { return false }
            ancestors = ancestors[..<match]
        }
        return true
    }
}
