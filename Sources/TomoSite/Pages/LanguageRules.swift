import CICUShim
import Foundation
import Synchronization
import TomoCore

/// CLDR's rules for one language, through ICU: which plural form a count takes, and how a date
/// is written. Opened once per language for the whole process (a build fills in a count for
/// every post card, and a date for each), and shared by every thread.
final class LanguageRules: @unchecked Sendable {
    // @unchecked: the ICU objects are never changed after opening; ICU's plural rules are safe
    // to read from any thread, and the shim makes calls on one date format take turns.
    private let plurals: OpaquePointer?
    /// The plural forms of the counts below `keptCounts`, asked of ICU once: the counts pages
    /// show (likes, posts, followers) are mostly small, and each page shows many.
    private let smallCountForms: [String]
    static let keptCounts = 1_024
    private let dates: OpaquePointer?
    /// `og:locale`: the language and its likeliest territory (`en_US`, `zh_CN` for zh-Hans);
    /// nil when ICU knows no territory for it.
    let openGraphLocale: String?
    /// `rtl` for a language written right to left, nil for left to right (`direction(of:)`).
    let direction: String?

    /// The CLDR plural forms a label may give (`{"one": …, "few": …, "other": …}`).
    static let pluralForms: Set<String> = ["zero", "one", "two", "few", "many", "other"]
    /// Day, month written out, year, and the time as the language says it (12 or 24 hours).
    static let dateSkeleton = "yMMMMdjmm"

    private static let opened = Mutex<[LanguageTag: LanguageRules]>([:])

    /// The rules of `language`, opened the first time it is asked for.
    static func of(_ language: LanguageTag) -> LanguageRules {
        opened.withLock { opened in
            if let rules = opened[language] { return rules }
            let rules = LanguageRules(language)
            opened[language] = rules
            return rules
        }
    }

    private init(_ language: LanguageTag) {
        plurals = tomo_plural_rules_open(language.text)
        smallCountForms = (0..<Self.keptCounts).map { [plurals] count in Self.select(plurals, count) }
        dates = tomo_date_format_open(language.text, Self.dateSkeleton)
        var locale = [CChar](repeating: 0, count: 32)
        let length = tomo_language_territory(language.text, &locale, Int32(locale.count))
        openGraphLocale = length > 0 ? Self.string(locale, length) : nil
        direction = Self.direction(of: language)
    }

    /// The direction a page in `language` is laid out in, for `<html dir>`: `rtl` when the
    /// language is written right to left, nil when left to right (HTML's default, so no `dir`).
    /// A script subtag decides when the tag has one (`pa-Arab` and `az-Arab` are right to left,
    /// `sd-Deva` and `ks-Deva` are not); otherwise the language subtag does
    /// (`rightToLeftLanguages`: `ar`, `he`, `fa`, `ur`…). A private-use or irregular tag is
    /// left to right.
    static func direction(of language: LanguageTag) -> String? {
        let subtags = language.text.split(separator: "-")
        guard let first = subtags.first else { return nil }
        // The script is the one subtag of four letters before any singleton (`x-…`, `u-…`):
        // extlangs have three, regions two letters or three digits, variants of four start
        // with a digit.
        let script = subtags.dropFirst().prefix { $0.count != 1 }.first { $0.count == 4 && $0.allSatisfy(\.isLetter) }
        let rightToLeft = script.map { rightToLeftScripts.contains(String($0)) } ?? rightToLeftLanguages.contains(String(first))
        return rightToLeft ? "rtl" : nil
    }

    /// ISO 15924 scripts written right to left (as Unicode's bidi classes have them): Arabic
    /// and its Nastaliq form, Hebrew, Thaana, Syriac, N'Ko, Adlam, Hanifi Rohingya, Mandaic,
    /// Samaritan, Mende Kikakui, Yezidi and the historic ones.
    static let rightToLeftScripts: Set<String> = [
        "Adlm", "Arab", "Aran", "Armi", "Avst", "Chrs", "Cprt", "Elym", "Hatr", "Hebr", "Hung", "Khar",
        "Lydi", "Mand", "Mani", "Mend", "Merc", "Mero", "Narb", "Nbat", "Nkoo", "Ougr", "Orkh", "Palm",
        "Phli", "Phlp", "Phnx", "Prti", "Rohg", "Samr", "Sarb", "Sogd", "Sogo", "Syrc", "Syre", "Syrj",
        "Syrn", "Thaa", "Yezi",
    ]

    /// Languages whose usual script (CLDR's likely subtags) is one of `rightToLeftScripts`:
    /// Arabic and its spoken varieties, Hebrew, Yiddish, Persian and Dari, Urdu, Pashto,
    /// Sindhi, Uyghur, Dhivehi, Central and Southern Kurdish, Kashmiri, Western Punjabi,
    /// Balochi, Syriac, Aramaic, N'Ko, Rohingya, Ladino and others (`iw` and `ji`, the old
    /// codes of Hebrew and Yiddish, too).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arb", "arq", "ary", "arz", "aeb", "apc", "acm", "ajp", "ars", "afb", "ayl", "shu",
        "he", "iw", "yi", "ji", "lad", "fa", "pes", "prs", "ur", "ps", "pbt", "pbu", "sd", "ug", "dv",
        "ckb", "sdh", "lrc", "mzn", "glk", "bqi", "azb", "ks", "pnb", "skr", "bal", "khw", "ota",
        "syr", "arc", "sam", "nqo", "rhg",
    ]

    deinit {
        tomo_plural_rules_close(plurals)
        tomo_date_format_close(dates)
    }

    /// The CLDR plural form `count` takes in this language (`other` when ICU has no rules).
    func pluralForm(_ count: Int) -> String {
        smallCountForms.indices.contains(count) ? smallCountForms[count] : Self.select(plurals, count)
    }

    private static func select(_ plurals: OpaquePointer?, _ count: Int) -> String {
        guard let plurals else { return "other" }
        var form = [CChar](repeating: 0, count: 16)
        let length = tomo_plural_rules_select(plurals, Double(count), &form, Int32(form.count))
        guard length > 0 else { return "other" }
        return string(form, length)
    }

    /// `date` as the clock read `utcOffset` seconds east of UTC, written in this language
    /// (`May 1, 2026 at 6:30 PM`, `2026年5月1日 18:30`); nil when ICU cannot write it.
    func dateText(_ date: Date, utcOffset: Int) -> String? {
        guard let dates else { return nil }
        // The format reads UTC: shifting the instant by the offset makes it show the author's
        // wall clock, whatever the machine's time zone.
        let milliseconds = (date.timeIntervalSince1970 + Double(utcOffset)) * 1000
        var text = [CChar](repeating: 0, count: 256)
        let length = tomo_date_format_text(dates, milliseconds, &text, Int32(text.count))
        guard length > 0 else { return nil }
        return Self.string(text, length)
    }

    private static func string(_ bytes: [CChar], _ length: Int32) -> String {
        String(decoding: bytes.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
