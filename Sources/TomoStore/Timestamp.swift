import Foundation

/// Store times: ISO 8601 in UTC with milliseconds, so text order is time order.
public enum Timestamp {
    public static func now() -> String {
        format(Date())
    }

    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
