import Foundation
import TomoCore

/// The address space a process may reserve (`ulimit -v`): a build reserves far more than it
/// uses (a stack for each thread, libvips' and the allocator's arenas), and under too small a
/// limit a thread that cannot start leaves the build waiting for it for ever, holding the
/// output's lock, or libvips aborts. So a command that builds says so first, with the fix.
enum AddressSpace {
    /// What a build of the smallest site reserves on two cores is about 1 GB.
    static let needed: UInt64 = 1 << 30

    /// Throws when `ulimit -v` allows less than `needed` to `command`.
    static func check(for command: String) throws(Diagnostic) {
        var limit = rlimit()
        // RLIM_INFINITY is the largest value.
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, UInt64(limit.rlim_cur) < needed else { return }
        throw Diagnostic(
            "\(command) needs at least \(needed >> 20) MB of address space, and `ulimit -v` allows \(UInt64(limit.rlim_cur) >> 20) MB: raise the limit (ulimit -v unlimited, or at least \(needed >> 10)), then run it again"
        )
    }
}
