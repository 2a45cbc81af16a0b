import Foundation
import Glibc
import Synchronization
import TomoCore

/// Watches folders and everything below them (inotify) and reports changed paths in batches:
/// after a change, it waits until nothing has changed for `debounce` (or, once every file written
/// to was closed, for `settle`, if shorter), then calls `onChange` once with every path touched
/// (created, written, renamed from or to, deleted, chmod-ed), sorted.
///
/// Editors that save by writing a temporary file and renaming it over the original, or that
/// write a file twice, produce one batch. New sub-folders (and links to folders) are watched as
/// they appear, and the files already inside them when the watch starts are reported too; so
/// is a watched folder that does not exist yet, once it appears, or that is made anew or
/// re-linked. A change reached through a link is reported under the link's name: a folder
/// watched under two names (a link to it) under both, and an edit of a linked file's target
/// under the link. A folder that cannot be watched (no permission, the system's limit of
/// watches) is told to `onUnwatched`, and watched after all when a change of its permissions
/// lets it be.
public final class FileWatcher: Sendable {
    private let stopPipeWriteEnd: Int32
    private let finished: DispatchSemaphore
    private let isStopped: Mutex<Bool>
    /// The watcher thread, so `stop` called from `onChange` does not wait for itself.
    private let watcherThread: pthread_t

    /// Starts watching on a thread of its own; `onChange` and `onUnwatched` (a folder and why
    /// it cannot be watched) run on that thread, or during `init` for the folders there now.
    /// With `links`, a link is followed only when that rule lets a build read through it (it
    /// stays inside the site). Throws a `Diagnostic` when a folder neither exists nor has a
    /// parent folder to appear in, or inotify is unavailable.
    public init(folders: [URL], debounce: Duration = .milliseconds(50), settle: Duration = .milliseconds(10), links: SiteLinks? = nil,
                onUnwatched: @escaping @Sendable (URL, String) -> Void = { _, _ in },
                onChange: @escaping @Sendable ([URL]) -> Void) throws {
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else {
            throw Diagnostic("cannot watch files: inotify_init1 failed (\(String(cString: strerror(errno))))")
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(inotify)
            throw Diagnostic("cannot watch files: pipe failed (\(String(cString: strerror(errno))))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let loop = WatchLoop(inotify: inotify, stopReadEnd: pipeEnds[0], debounce: debounce, settle: settle, links: links, onUnwatched: onUnwatched, onChange: onChange)
        for folder in folders {
            let path = folder.standardizedFileURL.path
            guard loop.watchRoot(path) else {
                loop.closeDescriptors()
                close(pipeEnds[1])
                throw Diagnostic("cannot watch \(path): no such folder")
            }
        }
        stopPipeWriteEnd = pipeEnds[1]
        isStopped = Mutex(false)
        let finished = DispatchSemaphore(value: 0)
        self.finished = finished
        let identity = ThreadIdentity()
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            identity.thread = pthread_self()
            started.signal()
            loop.run()
            loop.closeDescriptors()
            finished.signal()
        }
        thread.name = "tomo file watcher"
        thread.start()
        started.wait()  // after this, `identity.thread` is set and no longer written
        watcherThread = identity.thread
    }

    /// Stops watching and waits for the watcher thread to end: no callback runs after this
    /// returns (unless `stop` is called from the callback itself). Safe to call twice.
    public func stop() {
        let wasStopped = isStopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        var byte: UInt8 = 1
        _ = write(stopPipeWriteEnd, &byte, 1)
        if pthread_equal(watcherThread, pthread_self()) == 0 { finished.wait() }
        close(stopPipeWriteEnd)
    }

    deinit {
        stop()
    }
}

/// The watcher thread's id, written by that thread before it signals that it started.
private final class ThreadIdentity: @unchecked Sendable {
    var thread = pthread_t()
}
