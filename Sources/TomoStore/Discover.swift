import Foundation
import TomoCore

/// `tomo discover`: who is near, of the gender sought, not yet picked and not blocked.
public struct Nearby: Sendable, Hashable {
    public var handle: String
    public var kilometres: Double
}

/// Where a user of the gender sought stands for `discover`: listed at a distance, or why not.
enum DiscoverStanding: Equatable {
    case listed(Double)
    case beyond(Double)
    case picked
    case blocked
    case noLocation
}

extension Store {
    /// Users within `radius` km of `handle` whose gender is the one `handle` seeks, that `handle`
    /// has not picked yet and that are in no block with `handle`; nearest first, ties by handle.
    public func discover(_ handle: String, within radius: Double = 1, limit: Int? = nil) throws(Diagnostic) -> [Nearby] {
        var found: [Nearby] = []
        for candidate in try candidates(for: handle, within: radius) {
            if case .listed(let kilometres) = candidate.standing { found.append(Nearby(handle: candidate.handle, kilometres: kilometres)) }
        }
        found.sort { $0.kilometres != $1.kilometres ? $0.kilometres < $1.kilometres : $0.handle < $1.handle }
        if let limit { return Array(found.prefix(max(0, limit))) }
        return found
    }

    /// Why `discover` lists nobody: the users near but left out (picked, or in a block), else
    /// the nearest one beyond the radius, else those without a location, else that nobody has
    /// the gender sought.
    public func whyNobodyIsNear(_ handle: String, within radius: Double) throws(Diagnostic) -> String {
        let candidates = try candidates(for: handle, within: radius)
        func handles(_ standing: DiscoverStanding) -> [String] {
            candidates.filter { $0.standing == standing }.map(\.handle).sorted()
        }
        let picked = handles(.picked)
        let blocked = handles(.blocked)
        var reason: String
        if !picked.isEmpty || !blocked.isEmpty {
            var leftOut: [String] = []
            if !picked.isEmpty { leftOut.append("\(handle) picked \(picked.joined(separator: ", ")) already") }
            if !blocked.isEmpty { leftOut.append("\(blocked.joined(separator: ", ")) \(blocked.count == 1 ? "is" : "are") in a block with \(handle)") }
            reason = "\(Plural.count(picked.count + blocked.count, "user")) within \(radius) km: " + leftOut.joined(separator: "; ")
        } else if let nearest = candidates.compactMap({ candidate -> Nearby? in
            guard case .beyond(let kilometres) = candidate.standing else { return nil }
            return Nearby(handle: candidate.handle, kilometres: kilometres)
        }).min(by: { ($0.kilometres, $0.handle) < ($1.kilometres, $1.handle) }) {
            // The next hundredth of a kilometre above the distance: a radius that takes them in.
            let enough = ((nearest.kilometres * 100).rounded(.down) + 1) / 100
            reason = "the nearest, \(nearest.handle), is \(String(format: "%.2f", nearest.kilometres)) km away: try --within \(String(format: "%.2f", enough))"
        } else if !handles(.noLocation).isEmpty {
            let unplaced = handles(.noLocation)
            reason = "\(unplaced.joined(separator: ", ")) \(unplaced.count == 1 ? "has" : "have") no location (`tomo user set HANDLE --location LAT,LON`)"
        } else {
            reason = "no other user has the gender \(user(handle)?.seeking ?? "") that \(handle) seeks"
        }
        return "nobody within \(radius) km of \(handle): \(reason)"
    }

    /// Every other user of the gender `handle` seeks, with where they stand for `discover`.
    private func candidates(for handle: String, within radius: Double) throws(Diagnostic) -> [(handle: String, standing: DiscoverStanding)] {
        needs(.users, .picks, .blocks)
        let seeker = try requireUser(handle)
        guard let origin = seeker.location else {
            throw Diagnostic("\(handle) has no location: set it with `tomo user set \(handle) --location LAT,LON`")
        }
        guard let seeking = seeker.seeking else {
            throw Diagnostic("\(handle) seeks no gender yet: set it with `tomo user set \(handle) --seeking G`")
        }
        let picked = Set(outgoingPicks(handle).map(\.to))
        return users.filter { $0.handle != handle && $0.gender == seeking }.map { candidate in
            guard let location = candidate.location else { return (candidate.handle, .noLocation) }
            let distance = Self.greatCircleKilometres(origin, location)
            if distance > radius { return (candidate.handle, .beyond(distance)) }
            if picked.contains(candidate.handle) { return (candidate.handle, .picked) }
            if isBlocked(between: handle, candidate.handle) { return (candidate.handle, .blocked) }
            return (candidate.handle, .listed(distance))
        }
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
