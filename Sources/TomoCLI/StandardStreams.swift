import Foundation
import Synchronization

/// The process's standard output and error, written with `write(2)`: whole texts (a short write
/// or an interrupted one is continued), one at a time across threads, and never a crash when a
/// stream is closed, broken or full.
///
/// - The reader went away (`tomo user list | head -1`, `tomo serve | tee log` stopped with
///   Ctrl-C): EPIPE. tomo stops quietly, as a program killed by SIGPIPE would, but with a normal
///   exit status: 0, or 1 when it had already reported an error.
/// - Any other failure (`>/dev/full`, an I/O error, a closed descriptor): exit status 1, with
///   a message on standard error when that still works.
enum StandardStreams {
    private static let lock = Mutex(())

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

    static func write(_ text: String, to stream: Console.Stream, statusIfReaderLeft: Int32) {
        lock.withLock { _ in
            let descriptor = stream == .output ? STDOUT_FILENO : STDERR_FILENO
            guard let failure = writeAll(Array(text.utf8), to: descriptor) else { return }
            if failure == EPIPE { _exit(statusIfReaderLeft) }
            if stream == .output {
                _ = writeAll(Array("error: cannot write to standard output: \(String(cString: strerror(failure)))\n".utf8), to: STDERR_FILENO)
            }
            _exit(1)
        }
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
