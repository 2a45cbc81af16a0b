import Foundation
import TomoCore

/// `tomo discover`: who is near, of the gender sought, not yet picked and not blocked.
public struct Nearby: Sendable, Hashable {
    public var handle: String
    public var kilometres: Double
}

/// Why `discover` leaves out a user of the gender sought, however near or far they are.
enum DiscoverExclusion: Equatable {
    case picked
    case blocked
}

/// A user of the gender sought, as `discover` sees them: how far (nil without a location) and
/// whether they are left out whatever the distance.
struct DiscoverCandidate {
    var handle: String
    var kilometres: Double?
    var exclusion: DiscoverExclusion?

    /// Whether `discover` lists them at `radius`: placed within it and not left out.
    func isListed(within radius: Double) -> Bool {
        exclusion == nil && isPlaced(within: radius)
    }

    func isPlaced(within radius: Double) -> Bool {
        kilometres.map { $0 <= radius } ?? false
    }
}

extension Store {
    /// Users within `radius` km of `handle` whose gender is the one `handle` seeks, that `handle`
    /// has not picked yet and that are in no block with `handle`; nearest first, ties by handle.
    public func discover(_ handle: String, within radius: Double = 1, limit: Int? = nil) throws(Diagnostic) -> [Nearby] {
        var found: [Nearby] = []
        for candidate in try discoverCandidates(for: handle) where candidate.isListed(within: radius) {
            if let kilometres = candidate.kilometres { found.append(Nearby(handle: candidate.handle, kilometres: kilometres)) }
        }
        found.sort { $0.kilometres != $1.kilometres ? $0.kilometres < $1.kilometres : $0.handle < $1.handle }
        if let limit { return Array(found.prefix(max(0, limit))) }
        return found
    }

    /// Why `discover` lists nobody: the users near but left out (picked, or in a block), else
    /// the nearest one beyond the radius that a wider one would list, else those `discover`
    /// could list but for their missing location, else that every user of the gender sought is
    /// left out, else that nobody has that gender. The hints name only users that `discover`
    /// could list, so following one never ends in another refusal.
    public func whyNobodyIsNear(_ handle: String, within radius: Double) throws(Diagnostic) -> String {
        let candidates = try discoverCandidates(for: handle)
        let eligible = candidates.filter { $0.exclusion == nil }
        let unplaced = eligible.filter { $0.kilometres == nil }.map(\.handle).sorted()
        let seeking = user(handle)?.seeking ?? ""
        var reason: String
        let leftOutNear = candidates.filter { $0.exclusion != nil && $0.isPlaced(within: radius) }
        if !leftOutNear.isEmpty {
            reason = "\(Plural.count(leftOutNear.count, "user")) within \(radius) km: " + Self.leftOut(leftOutNear, by: handle)
        } else if let nearest = eligible.compactMap({ candidate -> Nearby? in
            guard let kilometres = candidate.kilometres, kilometres > radius else { return nil }
            return Nearby(handle: candidate.handle, kilometres: kilometres)
        }).min(by: { ($0.kilometres, $0.handle) < ($1.kilometres, $1.handle) }) {
            // The next hundredth of a kilometre above the distance: a radius that takes them in.
            let enough = ((nearest.kilometres * 100).rounded(.down) + 1) / 100
            reason = "the nearest, \(nearest.handle), is \(String(format: "%.2f", nearest.kilometres)) km away: try --within \(String(format: "%.2f", enough))"
        } else if !unplaced.isEmpty {
            reason = "\(unplaced.joined(separator: ", ")) \(unplaced.count == 1 ? "has" : "have") no location (`tomo user set HANDLE --location LAT,LON`)"
        } else if !candidates.isEmpty {
            reason = "every user of the gender \(seeking) that \(handle) seeks is left out, near or far: " + Self.leftOut(candidates, by: handle)
        } else {
            reason = "no other user has the gender \(seeking) that \(handle) seeks"
        }
        return "nobody within \(radius) km of \(handle): \(reason)"
    }

    /// `alice picked carl already; dana is in a block with alice`: why `seeker` is not shown
    /// the users left out among `candidates`.
    private static func leftOut(_ candidates: [DiscoverCandidate], by seeker: String) -> String {
        func handles(_ exclusion: DiscoverExclusion) -> [String] {
            candidates.filter { $0.exclusion == exclusion }.map(\.handle).sorted()
        }
        let picked = handles(.picked)
        let blocked = handles(.blocked)
        var parts: [String] = []
        if !picked.isEmpty { parts.append("\(seeker) picked \(picked.joined(separator: ", ")) already") }
        if !blocked.isEmpty { parts.append("\(blocked.joined(separator: ", ")) \(blocked.count == 1 ? "is" : "are") in a block with \(seeker)") }
        return parts.joined(separator: "; ")
    }

    /// Every other user of the gender `handle` seeks, with their distance and whether they are
    /// left out. The one place that decides who `discover` may list: the listing and the hints
    /// of `whyNobodyIsNear` both read it.
    private func discoverCandidates(for handle: String) throws(Diagnostic) -> [DiscoverCandidate] {
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
            let exclusion: DiscoverExclusion? =
                picked.contains(candidate.handle) ? .picked
                : isBlocked(between: handle, candidate.handle) ? .blocked
                : nil
            return DiscoverCandidate(
                handle: candidate.handle,
                kilometres: candidate.location.map { Self.greatCircleKilometres(origin, $0) },
                exclusion: exclusion
            )
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
