import Foundation

/// Rings when a request finds that a file this server stored is gone from the disk (the
/// store's folder, `.tomo-cache/`, deleted while it served): the server's owner, which can
/// make the files again, is told once, on a thread of its own, and requests wait for it to
/// finish instead of failing. Armed again by the next publish of a whole site, the one that
/// stores every file again; until then a request for a lost file fails at once rather than
/// waiting for a restore that is not coming (a site that does not build now).
final class LostFilesAlarm: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var handler: (@Sendable () -> Void)?
    private var isArmed = true
    private var isRinging = false

    /// How long a request waits for the files to be stored again before it gives up (503).
    static let longestWait: TimeInterval = 30

    /// `handler` makes the files again and publishes them (it returns when that is done).
    func setHandler(_ handler: @escaping @Sendable () -> Void) {
        condition.lock()
        self.handler = handler
        condition.unlock()
    }

    /// A whole site was published: a later loss is told again.
    func rearm() {
        condition.lock()
        isArmed = true
        condition.unlock()
    }

    /// Tells the owner of the loss (unless it was told and has not published a whole site
    /// since) and waits until it is done; true when it was, so that the request may look its
    /// file up again.
    func ringAndWait(before: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if isArmed, !isRinging, let handler {
            isArmed = false
            isRinging = true
            Thread.detachNewThread { [self] in
                before()
                handler()
                condition.lock()
                isRinging = false
                condition.broadcast()
                condition.unlock()
            }
        }
        guard isRinging else { return false }
        let deadline = Date(timeIntervalSinceNow: Self.longestWait)
        while isRinging, condition.wait(until: deadline) {}
        return !isRinging
    }
}
