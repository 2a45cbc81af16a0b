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
    }

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
