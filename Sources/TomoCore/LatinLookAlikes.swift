/// Cyrillic and Greek letters drawn like a Latin letter, with that letter in lower case.
///
/// Someone typing a handle on a Cyrillic or Greek keyboard layout, or pasting one, gets `а`
/// (U+0430) for `a` and sees no difference; a suggestion that turned it into `_` would be no
/// help. Only letters that look like the Latin one in common fonts are here (after the
/// confusables of Unicode TR 39), both cases, so `аlice` and `АLICE` both lead to `alice`;
/// letters that merely sound alike (`д`, `λ`) are left out.
public enum LatinLookAlikes {
    /// The Latin letter `scalar` is drawn like, or nil when it is not one of these look-alikes.
    public static func latin(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        table[scalar]
    }

    private static let table: [Unicode.Scalar: Unicode.Scalar] = [
        // Cyrillic, lower case.
        "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "ӏ": "l", "о": "o",
        "р": "p", "ԛ": "q", "ѕ": "s", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y",
        // Cyrillic, upper case.
        "А": "a", "В": "b", "С": "c", "Е": "e", "Н": "h", "І": "i", "Ј": "j", "К": "k", "Ӏ": "l",
        "М": "m", "О": "o", "Р": "p", "Ԛ": "q", "Ѕ": "s", "Т": "t", "Ѵ": "v", "Ԝ": "w", "Х": "x",
        "У": "y", "Ү": "y",
        // Greek, lower case.
        "α": "a", "γ": "y", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
        "χ": "x",
        // Greek, upper case.
        "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n",
        "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
    ]
}
