import Foundation
import TomoCore

/// `tomo discover`: who is near, of the gender sought, not yet picked and not blocked.
public struct Nearby: Sendable, Hashable {
    public var handle: String
    public var kilometres: Double
}

extension Store {
    /// Users within `radius` km of `handle` whose gender is the one `handle` seeks, that `handle`
    /// has not picked yet and that are in no block with `handle`; nearest first, ties by handle.
    public func discover(_ handle: String, within radius: Double = 1, limit: Int? = nil) throws(Diagnostic) -> [Nearby] {
        needs(.users, .picks, .blocks)
        let seeker = try requireUser(handle)
        guard let origin = seeker.location else {
            throw Diagnostic("\(handle) has no location: set it with `tomo user set \(handle) --location LAT,LON`")
        }
        guard let seeking = seeker.seeking else {
            throw Diagnostic("\(handle) seeks no gender yet: set it with `tomo user set \(handle) --seeking G`")
        }
        let picked = Set(outgoingPicks(handle).map(\.to))
        var found: [Nearby] = []
        for candidate in users where candidate.handle != handle && candidate.gender == seeking {
            guard let location = candidate.location, !picked.contains(candidate.handle) else { continue }
            let distance = Self.greatCircleKilometres(origin, location)
            if distance <= radius, !isBlocked(between: handle, candidate.handle) {
                found.append(Nearby(handle: candidate.handle, kilometres: distance))
            }
        }
        found.sort { $0.kilometres != $1.kilometres ? $0.kilometres < $1.kilometres : $0.handle < $1.handle }
        if let limit { return Array(found.prefix(max(0, limit))) }
        return found
    }

    /// Haversine distance on a sphere of the Earth's mean radius (6371.0088 km).
    public static func greatCircleKilometres(_ a: Location, _ b: Location) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (b.latitude - a.latitude) * radians
        let deltaLongitude = (b.longitude - a.longitude) * radians
        let h = sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 2 * 6371.0088 * asin(min(1, sqrt(h)))
    }
}
