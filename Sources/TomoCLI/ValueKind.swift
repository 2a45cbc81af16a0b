import Foundation
import TomoContent
import TomoCore
import TomoPreview
import TomoSite
import TomoStore

/// What a shell completes for a value: nothing, file or folder names, or a fixed list of words.
public enum ValueCompletion: Sendable, Equatable {
    case nothing
    case files
    case directories
    case words([String])
}

/// What a value on the command line must be. The parser checks every value against its kind
/// before any command runs, so a bad value is wrong usage (exit status 2) whatever else is
/// wrong, and completions read the same kinds.
public struct ValueKind: Sendable {
    /// Names the kind (in tests, and to tell kinds apart).
    public let name: String
    public let completion: ValueCompletion
    /// Text that may end up in a content file, the store or a page: held to the
    /// `ForbiddenCharacters` rule every content file is held to. Paths are passed on as typed.
    public let isContentText: Bool
    /// Whether a value is blank, for kinds where a blank value is no value (`--reason ""` is
    /// `--reason` not given); nil where a blank value is a value.
    let isBlank: (@Sendable (String) -> Bool)?
    /// Why `text` is not a value of this kind, as a message about `label` (`--port`, `DECISION`);
    /// nil when it is one.
    let problem: @Sendable (_ text: String, _ label: String) -> String?

    init(
        _ name: String,
        completion: ValueCompletion = .nothing,
        isContentText: Bool = true,
        isBlank: (@Sendable (String) -> Bool)? = nil,
        problem: @escaping @Sendable (_ text: String, _ label: String) -> String? = { _, _ in nil }
    ) {
        self.name = name
        self.completion = completion
        self.isContentText = isContentText
        self.isBlank = isBlank
        self.problem = problem
    }

    /// Every problem of `text` as a value labelled `label`, in the order they are reported.
    func check(_ text: String, label: String) -> String? {
        if isContentText, let problem = ForbiddenCharacters.problem(in: text, named: label) { return problem }
        return problem(text, label)
    }

    /// Any text (a caption, alt text, a name).
    public static let text = ValueKind("text")
    /// Text that must say something (a report's reason): blank by the store's rule, which
    /// trims every Unicode space.
    public static let someText = ValueKind("some text", isBlank: { $0.trimmingWhitespace().isEmpty })
    /// A display name: blank by the profile's rule, which trims spaces and tabs.
    public static let displayName = ValueKind("display name", isBlank: { $0.trimmingCharacters(in: .whitespaces).isEmpty })
    /// A file, handed to the file system as typed.
    public static let path = ValueKind("path", completion: .files, isContentText: false)
    /// A folder, handed to the file system as typed.
    public static let directory = ValueKind("directory", completion: .directories, isContentText: false)
    /// A name of a file or folder of the built-in theme (`tomo theme eject profile`), completed
    /// from the theme; `tomo theme eject` checks the names it is given all at once.
    public static let themeName = ValueKind("theme name", completion: .words(ThemeEjection.names))
}

/// A kind of value and how a command reads it: the parser checks a value with the same `read`
/// a command converts it with, so the rule for a value is written once.
public struct ValueType<Value>: Sendable {
    public let kind: ValueKind
    let read: @Sendable (_ text: String, _ label: String) -> Result<Value, UsageError>

    init(_ name: String, completion: ValueCompletion = .nothing, isContentText: Bool = true, read: @escaping @Sendable (_ text: String, _ label: String) -> Result<Value, UsageError>) {
        self.read = read
        kind = ValueKind(name, completion: completion, isContentText: isContentText, problem: { text, label in
            if case .failure(let error) = read(text, label) { return error.message }
            return nil
        })
    }

    /// One of a fixed list of words, with a "did you mean" for a typo.
    static func choice(_ name: String, _ words: [String], _ value: @escaping @Sendable (String) -> Value?) -> ValueType {
        ValueType(name, completion: .words(words)) { text, label in
            if let value = value(text) { return .success(value) }
            let hint = Suggestion.hint(for: text, in: words)
            return .failure(UsageError("\(label) takes \(listed(words)), not \"\(text)\"\(hint)"))
        }
    }

    /// `a, b or c`
    static func listed(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }
}

/// The kinds of value the commands take, beyond text and paths.
enum ValueTypes {
    static let port = ValueType<UInt16>("port") { text, label in
        // Digits only: `UInt16(_:)` alone would also take `+80`.
        guard text.utf8.allSatisfy(isDigit), let number = UInt16(text), number > 0 else { return .failure(UsageError("\(label) takes a number from 1 to 65535, not \"\(text)\"")) }
        return .success(number)
    }

    static let listenAddress = ValueType<String>("listen address") { text, label in
        if let problem = SitePreview.hostProblem(text) { return .failure(UsageError("\(label): \(problem)")) }
        return .success(text)
    }

    /// A site's address (`--base-url`), held to the one rule for it. Its rule names forbidden
    /// characters itself.
    static let siteAddress = ValueType<String>("site address", isContentText: false) { text, label in
        if let problem = URLRules.siteAddressProblem(text) { return .failure(UsageError("\(label) \(problem)")) }
        return .success(text)
    }

    static let onOff = ValueType<Bool>("on or off", completion: .words(["on", "off"])) { text, label in
        switch text {
        case "on", "yes", "true": return .success(true)
        case "off", "no", "false": return .success(false)
        default: return .failure(UsageError("\(label) takes on or off, not \"\(text)\""))
        }
    }

    /// `LAT,LON` in decimal degrees, or `none` (nil: clear it).
    static let location = ValueType<Location?>("location") { text, label in
        if text == "none" { return .success(nil) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { decimal($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], abs(latitude) <= 90, abs(longitude) <= 180 else {
            return .failure(UsageError("\(label) takes LAT,LON as two decimal numbers of degrees, latitude -90 to 90 and longitude -180 to 180 (e.g. 35.6812,139.7671 or -33.8688,151.2093), or none; not \"\(text)\""))
        }
        return .success(Location(latitude: latitude, longitude: longitude))
    }

    /// One word in lower case, or `none` (nil: clear it).
    static let word = ValueType<String?>("word") { text, label in
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        if word == "none" { return .success(nil) }
        guard User.wordProblem(word) == nil else {
            return .failure(UsageError("\(label) takes one word (e.g. f, m, x) of at most \(User.maximumWordLength) characters, or none"))
        }
        return .success(word)
    }

    static let visibility = ValueType<Post.Visibility>.choice("visibility", Post.Visibility.allCases.map(\.rawValue)) { Post.Visibility(rawValue: $0) }

    static let decision = ValueType<PickDecision>.choice("decision", PickDecision.allCases.map(\.rawValue)) { PickDecision(rawValue: $0) }

    /// A date as post files write it.
    static let date = ValueType<String>("date") { text, label in
        guard WrittenDate.parse(text) != nil else {
            return .failure(UsageError("\(label) \"\(text)\" is not a date: write \(WrittenDate.acceptedForms); a time without an offset is taken as UTC"))
        }
        return .success(text)
    }

    static let slug = ValueType<String>("slug") { text, label in
        if let problem = Identifiers.slugProblem(text) { return .failure(UsageError("\(label): \(problem)")) }
        return .success(text)
    }

    /// `text` as a plain decimal number: an optional `-`, digits, and an optional `.` with
    /// digits (`-33.8688`, `5`, `10.0`); nil for anything else, which `Double(_:)` alone would
    /// read: hexadecimal (`0x10` is 16), `inf`, `nan`, an exponent (`1e3`), a `+`, a space,
    /// `.5`, `5.` or nothing. A value too large for a Double is nil too, never infinity. Every
    /// option that takes a number with a fraction reads it here.
    static func decimal(_ text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > integerStart else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return nil }
        }
        guard index == bytes.count, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Bounded, so that converting a count to Int can never overflow.
    static let largest = 1e9

    static let kilometres = ValueType<Double>("kilometres") { text, label in
        guard let value = decimal(text), value >= 0, value <= largest else {
            return .failure(UsageError("\(label) needs a number of kilometres from 0 to 1,000,000,000, not \"\(text)\""))
        }
        return .success(value)
    }

    static let count = ValueType<Int>("count") { text, label in
        guard let value = decimal(text), value >= 0, value <= largest, value.rounded() == value else {
            return .failure(UsageError("\(label) needs a whole number from 0 to 1,000,000,000, not \"\(text)\""))
        }
        return .success(Int(value))
    }

    /// JSON text, or `@FILE` to read it from a file (read by the command: a missing file is a
    /// problem with the input, exit status 1).
    static let jsonOrFile = ValueType<JSONSource>("JSON or @FILE") { text, label in
        if text.hasPrefix("@") { return .success(.file(String(text.dropFirst()))) }
        // The parser's message starts with the label and the place: `--data:1:10: …`.
        do throws(Diagnostic) {
            return .success(.json(try JSONParser.parse(text, file: label)))
        } catch {
            return .failure(UsageError(error.description))
        }
    }
}

/// `--data`: JSON given on the command line, or the file that holds it.
enum JSONSource: Sendable {
    case json(JSONValue)
    case file(String)
}
