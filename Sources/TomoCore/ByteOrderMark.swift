/// The UTF-8 byte order mark some editors (Notepad) save before a text: every reader of the
/// site's text files, and of a batch file, reads past it.
public enum ByteOrderMark {
    public static let utf8: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// How many of the first bytes of `bytes` are the mark: 3, or 0 without one.
    public static func length(in bytes: some Collection<UInt8>) -> Int {
        bytes.starts(with: utf8) ? utf8.count : 0
    }
}
