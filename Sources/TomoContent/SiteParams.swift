import TomoCore
import TomoYAML

/// `params:` of `content/site.yaml`: a custom theme's own settings, handed to every template
/// as `site.params` (any mapping, nested). Tomo gives them no meaning and checks only what it
/// checks in every file: no text may hold a character `ForbiddenCharacters` refuses (key or
/// value), numbers are finite, and nesting is bounded. Templates escape them like all text.
enum SiteParams {
    /// Deeper nesting is an error: no theme needs more, and every walk of the values stays shallow.
    static let maximumDepth = 20

    /// The mapping under `params:`, or nil (reported) when it is not one or holds an error.
    static func read(_ node: YAMLNode, reader: NodeReader) -> [String: JSONValue]? {
        guard node.mapping != nil else {
            reader.error("expected params as `key: value` lines (a theme's own settings), found \(node.typeDescription)", at: node.location)
            return nil
        }
        return value(of: node, named: "params", depth: 1, reader: reader)?.objectValue
    }

    /// One value; `name` is its place for messages (`params.colors.accent`, `params.links[2]`).
    private static func value(of node: YAMLNode, named name: String, depth: Int, reader: NodeReader) -> JSONValue? {
        guard depth <= maximumDepth else {
            reader.error("params nest deeper than \(maximumDepth) levels at \(name): flatten them", at: node.location)
            return nil
        }
        switch node.kind {
        case .mapping(let pairs):
            var members: [String: JSONValue] = [:]
            var complete = true
            for pair in pairs {
                if let problem = ForbiddenCharacters.problem(in: pair.key, named: "a key of \(name)") {
                    reader.error(problem, at: pair.keyLocation)
                    complete = false
                } else if let member = value(of: pair.value, named: name + "." + pair.key, depth: depth + 1, reader: reader) {
                    members[pair.key] = member
                } else {
                    complete = false
                }
            }
            return complete ? .object(members) : nil
        case .sequence(let elements):
            // Every element is read, so every problem among them is reported.
            let values = elements.enumerated().compactMap { index, element in
                value(of: element, named: "\(name)[\(index)]", depth: depth + 1, reader: reader)
            }
            return values.count == elements.count ? .array(values) : nil
        case .scalar:
            switch node.scalar {
            case .null?, nil: return .null
            case .bool(let flag)?: return .bool(flag)
            case .int(let number)?: return .int(number)
            case .float(let number)? where number.isFinite: return .double(number)
            case .float?:
                reader.error("\(name) is not a finite number: put it in quotes to keep it as text", at: node.location)
                return nil
            case .string?: return reader.string(node, named: name).map(JSONValue.string)
            }
        }
    }
}
