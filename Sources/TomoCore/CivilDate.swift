import Foundation

/// Days and wall-clock times on the proleptic Gregorian calendar, by arithmetic (Howard
/// Hinnant's days-from-civil and civil-from-days): the one calendar every date of a site is
/// read, shown and written with. Foundation's `.gregorian` Calendar switches to the Julian
/// calendar before 1582-10-15, so reading with it and showing with this shifted old dates by
/// ten days (`1582-10-04` shown as October 14).
public enum CivilDate {
    /// Whether the day exists: February 29 only in years divisible by 4, except centuries not
    /// divisible by 400 (1500-02-29 does not exist, 1600-02-29 does; 1582-10-10 does).
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// Days from 1970-01-01 to the day (negative before it). For the years a date can be
    /// written with (four digits), far from any overflow.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01.
    public static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The date and time `date` shows on a wall clock `utcOffset` seconds east of UTC, to the
    /// second (rounded down). Instants beyond ±30 million years, which no written date
    /// reaches, are taken as 1970.
    public static func components(of date: Date, utcOffset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let local = (abs(seconds) < 1e15 ? Int(seconds) : 0) + utcOffset
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civil(days: days)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    /// The whole seconds since 1970-01-01T00:00:00Z at which a wall clock `utcOffset` seconds
    /// east of UTC shows this date and time, exactly.
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffset: Int) -> Int {
        days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - utcOffset
    }
}
