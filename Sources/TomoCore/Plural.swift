/// Counted nouns in messages: "1 image", "2 images", "0 errors". Every count tomo prints goes
/// through here, so no message says "1 images" or "2 error".
public enum Plural {
    /// `count` and the noun in the form that agrees with it: `Plural.count(1, "image")` is
    /// "1 image", `Plural.count(2, "reply")` is "2 replies".
    public static func count(_ count: Int, _ singular: String) -> String {
        "\(count) \(noun(count, singular))"
    }

    /// The noun alone, singular for exactly one and plural otherwise (zero included, as English
    /// says "0 errors").
    public static func noun(_ count: Int, _ singular: String) -> String {
        count == 1 ? singular : plural(of: singular)
    }

    /// The plural of an English noun: the few irregular ones tomo uses, then the spelling rules
    /// (-s, -es after s, x, z, ch and sh, -ies after a consonant and y).
    public static func plural(of singular: String) -> String {
        if let irregular = irregulars[singular] { return irregular }
        if ["s", "x", "z", "ch", "sh"].contains(where: singular.hasSuffix) { return singular + "es" }
        if singular.hasSuffix("y"), let before = singular.dropLast().last, !"aeiou".contains(before) {
            return singular.dropLast() + "ies"
        }
        return singular + "s"
    }

    private static let irregulars = ["person": "people", "child": "children"]
}
