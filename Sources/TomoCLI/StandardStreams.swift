import Foundation
import Synchronization

/// The process's standard output and error, written with `write(2)`: whole texts (a short write
/// or an interrupted one is continued), one at a time across threads, and never a crash when a
/// stream is closed, broken or full.
///
/// A stream that fails is not written to again, and the command goes on to its end: a store
/// command stopped at its first line of output would leave its work half done (the store
/// changed, the profile not written).
/// - The reader went away (`tomo user list | head -1`): EPIPE. Nothing is said, and the exit
///   status is the command's own.
/// - Any other failure (`>/dev/full`, an I/O error, a closed descriptor): `error: cannot write
///   to standard output: …` on standard error when that still works, and exit status 1.
enum StandardStreams {
    /// The errno each stream failed with (output, error), nil while it works.
    private static let failures = Mutex<(output: Int32?, error: Int32?)>((nil, nil))

    /// Ignores SIGPIPE, so a write to a pipe nobody reads fails with EPIPE instead of killing the
    /// process, and puts `/dev/null`, opened read-only, on any of descriptors 0–2 that is closed
    /// (`tomo build >&-`): no file the command opens takes that number (and receives its
    /// output), and writes to it still fail (EBADF).
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if null >= 0, null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
    }

    static func write(_ text: String, to stream: Console.Stream) {
        failures.withLock { failures in
            let failed = stream == .output ? failures.output : failures.error
            guard failed == nil else { return }
            let descriptor = stream == .output ? STDOUT_FILENO : STDERR_FILENO
            guard let failure = writeAll(Array(text.utf8), to: descriptor) else { return }
            if stream == .output {
                failures.output = failure
                if failure != EPIPE, failures.error == nil,
                   let second = writeAll(Array("error: cannot write to standard output: \(String(cString: strerror(failure)))\n".utf8), to: STDERR_FILENO) {
                    failures.error = second
                }
            } else {
                failures.error = failure
            }
        }
    }

    /// The exit status of a command that ended with `status`: 1 when a stream failed for
    /// another reason than its reader going away, since what it printed was lost.
    static func exitStatus(after status: Int32) -> Int32 {
        let (output, error) = failures.withLock { $0 }
        let lost = [output, error].contains { $0 != nil && $0 != EPIPE }
        return status == 0 && lost ? 1 : status
    }

    /// Writes every byte; the errno of the failure otherwise. A descriptor left non-blocking by
    /// another program sharing it (EAGAIN) is waited for.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                // write(2) makes no progress only on a failure; 0 would loop for ever.
                if written == 0 { return EIO }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:
                    var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, -1)
                default:
                    return errno
                }
            }
            return nil
        }
    }
}
