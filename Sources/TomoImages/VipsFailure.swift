import Foundation

/// libvips' own explanation of a failure, before it is given a file name.
struct VipsFailure: Error {
    /// Empty when libvips only logged a warning and left no error text.
    var reason: String

    /// " (reason)" for a message, naming the file as the person knows it rather than by the
    /// absolute path libvips quotes; "" when there is no reason.
    func detail(file: URL, displayPath: String) -> String {
        guard !reason.isEmpty else { return "" }
        return " (\(reason.replacingOccurrences(of: "\"\(file.path)\"", with: displayPath)))"
    }
}
