import Foundation

/// "Did you mean …?" for a misspelt word among the words that are allowed.
public enum Suggestion {
    /// The closest candidate to `word`, when it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        guard let best else { return nil }
        // Allow about one typo per three letters, at least one.
        let allowed = max(1, min(target.count, best.candidate.count) / 3)
        return best.distance <= allowed ? best.candidate : nil
    }

    /// ` (did you mean "x"?)` or the empty string, ready to append to a message. A word
    /// between typographic quotes (`‘blue’`, as phones and word processors type them) is the
    /// word without them, which YAML and JSON read as part of the text.
    public static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        let unquoted = word.trimmingCharacters(in: typographicQuotes)
        if unquoted != word, let match = closest(to: unquoted, in: candidates) {
            return " (did you mean \"\(match)\"? “ ” and ‘ ’ are typographic quotes, which YAML reads as text: write \" or ', or no quotes)"
        }
        guard let match = closest(to: word, in: candidates) else { return "" }
        return " (did you mean \"\(match)\"?)"
    }

    /// The quotes word processors and phones type: to YAML and JSON, letters of the text.
    public static let typographicQuotes = CharacterSet(charactersIn: "\u{201C}\u{201D}\u{2018}\u{2019}\u{201E}\u{00AB}\u{00BB}")

    /// Levenshtein distance with transpositions counted as one edit (optimal string alignment).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
