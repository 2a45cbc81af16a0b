// Fixed C entry points over ICU for Swift: CLDR plural rules and dates in a language.
//
// ICU renames every C function to a versioned symbol by macro (uplrules_open is
// uplrules_open_72), and Swift imports no macros, so Swift calls these plain functions
// instead. Languages are BCP 47 tags (`zh-Hans-TW`); ICU falls back along them itself.
#ifndef TOMO_ICU_H
#define TOMO_ICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The CLDR plural rules of one language (an ICU UPluralRules underneath); safe to share
/// between threads.
typedef struct TomoPluralRules TomoPluralRules;

/// The cardinal plural rules for `tag`, or NULL when ICU has none at all.
TomoPluralRules *tomo_plural_rules_open(const char *tag);

/// Writes the CLDR form (`zero`, `one`, `two`, `few`, `many` or `other`) for `count` into
/// `form` (NUL terminated); returns its length, or -1 when ICU failed.
int32_t tomo_plural_rules_select(const TomoPluralRules *rules, double count, char *form, int32_t capacity);

void tomo_plural_rules_close(TomoPluralRules *rules);

/// Writes `tag`'s language and likeliest territory as Open Graph's `og:locale` wants them
/// (`en` → `en_US`, `zh-Hans` → `zh_CN`, `pt` → `pt_BR`) into `locale`, NUL terminated;
/// returns its length, or -1 when ICU failed or knows no territory.
int32_t tomo_language_territory(const char *tag, char *locale, int32_t capacity);

/// Writes the ASCII form of the domain name `name` (UTF-8; IDNA by UTS #46, nontransitional:
/// `例え.jp` → `xn--r8jz45g.jp`) into `ascii`, NUL terminated; returns its length, or -1 when
/// the name has no ASCII form (a character IDNA disallows, a label too long) or `capacity`
/// is too small.
int32_t tomo_domain_to_ascii(const char *name, char *ascii, int32_t capacity);

/// Writes the Unicode form of the domain name `name` (`xn--r8jz45g.jp` → `例え.jp`, by UTS #46)
/// into `unicode`, NUL terminated; returns its length, or -1 when it has none or `capacity` is
/// too small.
int32_t tomo_domain_to_unicode(const char *name, char *unicode, int32_t capacity);

/// A date format of one language from a CLDR skeleton (`yMMMMdjmm`), reading dates in UTC;
/// calls on one format from several threads take turns.
typedef struct TomoDateFormat TomoDateFormat;

/// The best pattern ICU has for `skeleton` in `tag`, or NULL when ICU failed.
TomoDateFormat *tomo_date_format_open(const char *tag, const char *skeleton);

/// Writes the date `milliseconds` after 1970-01-01T00:00:00Z, as UTC, into `text` as UTF-8
/// (NUL terminated); returns its length in bytes, or -1 when it did not fit or ICU failed.
int32_t tomo_date_format_text(TomoDateFormat *format, double milliseconds, char *text, int32_t capacity);

void tomo_date_format_close(TomoDateFormat *format);

#ifdef __cplusplus
}
#endif

#endif
