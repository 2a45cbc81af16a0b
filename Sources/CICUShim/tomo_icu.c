#include "tomo_icu.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ucal.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uidna.h>
#include <unicode/uloc.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

/// ICU's locale ID for a BCP 47 tag (`zh-Hans-TW` → `zh_Hans_TW`); 0 when it cannot read it.
static int locale_of(const char *tag, char *locale, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    uloc_forLanguageTag(tag, locale, capacity, &parsed, &status);
    return U_SUCCESS(status) && status != U_STRING_NOT_TERMINATED_WARNING;
}

struct TomoPluralRules {
    UPluralRules *rules;
};

TomoPluralRules *tomo_plural_rules_open(const char *tag) {
    char locale[ULOC_FULLNAME_CAPACITY];
    if (!locale_of(tag, locale, sizeof locale)) {
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status) || !rules) {
        return NULL;
    }
    TomoPluralRules *result = malloc(sizeof *result);
    if (!result) {
        uplrules_close(rules);
        return NULL;
    }
    result->rules = rules;
    return result;
}

int32_t tomo_plural_rules_select(const TomoPluralRules *rules, double count, char *form, int32_t capacity) {
    UChar keyword[32];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uplrules_select(rules->rules, count, keyword, 32, &status);
    if (U_FAILURE(status) || length >= capacity || length >= 32) {
        return -1;
    }
    u_austrncpy(form, keyword, length);
    form[length] = 0;
    return length;
}

void tomo_plural_rules_close(TomoPluralRules *rules) {
    if (!rules) return;
    uplrules_close(rules->rules);
    free(rules);
}

int32_t tomo_language_territory(const char *tag, char *locale, int32_t capacity) {
    char given[ULOC_FULLNAME_CAPACITY];
    char likely[ULOC_FULLNAME_CAPACITY];
    char language[ULOC_LANG_CAPACITY];
    char territory[ULOC_COUNTRY_CAPACITY];
    UErrorCode status = U_ZERO_ERROR;
    if (!locale_of(tag, given, sizeof given)) {
        return -1;
    }
    uloc_addLikelySubtags(given, likely, sizeof likely, &status);
    int32_t languageLength = uloc_getLanguage(likely, language, sizeof language, &status);
    int32_t territoryLength = uloc_getCountry(likely, territory, sizeof territory, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING || languageLength == 0 || territoryLength == 0
        || languageLength + 1 + territoryLength >= capacity) {
        return -1;
    }
    memcpy(locale, language, languageLength);
    locale[languageLength] = '_';
    memcpy(locale + languageLength + 1, territory, territoryLength);
    locale[languageLength + 1 + territoryLength] = 0;
    return languageLength + 1 + territoryLength;
}

struct TomoDateFormat {
    UDateFormat *format;
    // Whether the calendar shows dates before the Gregorian reform on the Julian calendar:
    // ICU lets the C API move the reform only on a plain Gregorian calendar, not on the
    // Buddhist, Japanese or ROC ones that Thai (`th`) or `ja-u-ca-japanese` pages use.
    int julianBeforeReform;
    // A UDateFormat keeps a calendar it sets for every date it formats: one caller at a time.
    pthread_mutex_t lock;
};

TomoDateFormat *tomo_date_format_open(const char *tag, const char *skeleton) {
    char locale[ULOC_FULLNAME_CAPACITY];
    if (!locale_of(tag, locale, sizeof locale)) {
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UDateTimePatternGenerator *generator = udatpg_open(locale, &status);
    if (U_FAILURE(status)) {
        return NULL;
    }
    UChar wanted[64];
    UChar pattern[128];
    u_uastrncpy(wanted, skeleton, 63);
    wanted[63] = 0;
    int32_t length = udatpg_getBestPattern(generator, wanted, -1, pattern, 128, &status);
    udatpg_close(generator);
    if (U_FAILURE(status) || length >= 128) {
        return NULL;
    }
    UChar utc[] = {'U', 'T', 'C', 0};
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, locale, utc, -1, pattern, length, &status);
    if (U_FAILURE(status)) {
        return NULL;
    }
    // Dates are read on the proleptic Gregorian calendar (CivilDate): without this, ICU would
    // show a date before 1582-10-15 on the Julian one, days off from what the author wrote.
    int julianBeforeReform = 0;
    UCalendar *calendar = ucal_clone(udat_getCalendar(format), &status);
    if (U_SUCCESS(status)) {
        UErrorCode changed = U_ZERO_ERROR;  // refused by a calendar that is not plain Gregorian
        ucal_setGregorianChange(calendar, U_DATE_MIN, &changed);
        julianBeforeReform = U_FAILURE(changed);
        udat_setCalendar(format, calendar);
        ucal_close(calendar);
    }
    status = U_ZERO_ERROR;
    TomoDateFormat *result = malloc(sizeof *result);
    if (!result) {
        udat_close(format);
        return NULL;
    }
    result->format = format;
    result->julianBeforeReform = julianBeforeReform;
    pthread_mutex_init(&result->lock, NULL);
    return result;
}

/// The day of 1582-10-15, the Gregorian reform, counted from 1970-01-01.
static const int64_t reformDay = -141427;

/// For a calendar that shows days before the reform on the Julian calendar: the instant whose
/// Julian date has the proleptic Gregorian year, month and day of `milliseconds`, at the same
/// time of day, so that the calendar shows the date as written. The ten Gregorian days before
/// the reform (1582-10-05 to 14) have no such instant before it, and are left as they are.
static double julianInstantShowing(double milliseconds) {
    int64_t days = (int64_t)floor(milliseconds / 86400000.0);
    double timeOfDay = milliseconds - (double)days * 86400000.0;
    // The proleptic Gregorian date of `days` (Howard Hinnant's days_from_civil, inverted).
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t dayOfEra = z - era * 146097;
    int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
    int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int64_t shiftedMonth = (5 * dayOfYear + 2) / 153;
    int64_t day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1;
    int64_t month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
    int64_t year = yearOfEra + era * 400 + (month <= 2);
    // The Julian day number of that year, month and day on the Julian calendar.
    int64_t a = (14 - month) / 12;
    int64_t y = year + 4800 - a;
    int64_t m = month + 12 * a - 3;
    int64_t julianDays = day + (153 * m + 2) / 5 + 365 * y + y / 4 - 32083 - 2440588;
    if (y < 0 || julianDays >= reformDay) {
        return milliseconds;
    }
    return (double)julianDays * 86400000.0 + timeOfDay;
}

int32_t tomo_date_format_text(TomoDateFormat *format, double milliseconds, char *text, int32_t capacity) {
    if (format->julianBeforeReform && milliseconds < (double)reformDay * 86400000.0) {
        milliseconds = julianInstantShowing(milliseconds);
    }
    UChar formatted[256];
    UErrorCode status = U_ZERO_ERROR;
    pthread_mutex_lock(&format->lock);
    int32_t length = udat_format(format->format, milliseconds, formatted, 256, NULL, &status);
    pthread_mutex_unlock(&format->lock);
    if (U_FAILURE(status) || length >= 256) {
        return -1;
    }
    int32_t written = 0;
    u_strToUTF8(text, capacity, &written, formatted, length, &status);
    if (U_FAILURE(status) || written >= capacity) {
        return -1;
    }
    text[written] = 0;
    return written;
}

void tomo_date_format_close(TomoDateFormat *format) {
    if (!format) return;
    udat_close(format->format);
    pthread_mutex_destroy(&format->lock);
    free(format);
}

/// `name` converted by `convert` (ICU's UTS #46 to ASCII or to Unicode) with `options` into
/// `out`, NUL terminated; its length, or -1 when ICU refuses it or `capacity` is too small.
static int32_t domain_convert(const char *name, char *out, int32_t capacity, uint32_t options,
                              int32_t (*convert)(const UIDNA *, const char *, int32_t, char *, int32_t, UIDNAInfo *, UErrorCode *)) {
    UErrorCode status = U_ZERO_ERROR;
    UIDNA *idna = uidna_openUTS46(options, &status);
    if (U_FAILURE(status) || !idna) {
        return -1;
    }
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t length = convert(idna, name, -1, out, capacity, &info, &status);
    uidna_close(idna);
    if (U_FAILURE(status) || info.errors != 0 || length >= capacity) {
        return -1;
    }
    out[length] = 0;
    return length;
}

int32_t tomo_domain_to_ascii(const char *name, char *ascii, int32_t capacity) {
    return domain_convert(name, ascii, capacity, UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ, uidna_nameToASCII_UTF8);
}

int32_t tomo_domain_to_unicode(const char *name, char *unicode, int32_t capacity) {
    return domain_convert(name, unicode, capacity, UIDNA_NONTRANSITIONAL_TO_UNICODE, uidna_nameToUnicodeUTF8);
}
