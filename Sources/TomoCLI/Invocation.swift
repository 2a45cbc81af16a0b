import Foundation
import TomoContent
import TomoCore

/// A parsed command line, handed to a command's `run`.
public struct Invocation: Sendable {
    public var command: CommandSpec
    public var arguments: [String]
    public var options: [String: String]
    public var flags: Set<String>
    /// `--site DIR`, when given.
    public var siteOption: String?
    public var console: Console
    /// Where relative paths start; the process's working directory unless a test says otherwise.
    public var workingDirectory: URL
    /// Set when the command is a line of `tomo batch`: store commands then change the batch's
    /// store in memory instead of the store file.
    var batch: StoreBatch?

    public func option(_ name: String) -> String? { options[name] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional argument at `index`, when given.
    public func argument(_ index: Int) -> String? {
        index < arguments.count ? arguments[index] : nil
    }

    /// The option's value as `type` reads it; nil when not given. The parser checked it with
    /// the same `type` already, so this throws only if the option table declares another kind.
    public func value<Value>(_ name: String, _ type: ValueType<Value>) throws(UsageError) -> Value? {
        guard let text = option(name) else { return nil }
        return try read(text, label: "--\(name)", type)
    }

    /// The positional argument at `index` as `type` reads it; nil when not given.
    public func argument<Value>(_ index: Int, _ type: ValueType<Value>) throws(UsageError) -> Value? {
        guard let text = argument(index) else { return nil }
        return try read(text, label: command.arguments[min(index, command.arguments.count - 1)].name, type)
    }

    private func read<Value>(_ text: String, label: String, _ type: ValueType<Value>) throws(UsageError) -> Value {
        switch type.read(text, label) {
        case .success(let value): return value
        case .failure(let error): throw UsageError(error.message, usage: command.usage)
        }
    }

    /// Throws when `text` (nil: the working directory itself) is a path relative to a working
    /// directory that cannot be read (`WorkingDirectory.problem`).
    public func checkWorkingDirectory(for text: String?) throws(Diagnostic) {
        guard !(text?.hasPrefix("/") ?? false), let problem = WorkingDirectory.problem else { return }
        throw Diagnostic(problem)
    }

    /// The longest path inside a site a command makes or reads, in bytes, beyond the site
    /// folder's own: a post's thumbnail or page (`content/posts/` or `public/media/`, a handle of
    /// 30 and a slug of 80 characters, a width and a hash) fits in it with room to spare.
    static let longestPathInSite = 512

    /// Throws when `folder`'s path leaves no room for the paths inside a site before the
    /// system's limit (`PATH_MAX`): every call on them would fail with "file name too long",
    /// which read as "no site here" or "file name is invalid".
    static func checkRoomForASite(in folder: URL) throws(Diagnostic) {
        let length = folder.standardizedFileURL.path.utf8.count
        guard length + longestPathInSite > Int(PATH_MAX) else { return }
        throw Diagnostic("the site folder's path is \(length) bytes long, and the paths of the files in a site would pass the system's limit of \(PATH_MAX) bytes: move the site to a folder with a shorter path (at most \(Int(PATH_MAX) - longestPathInSite) bytes)")
    }

    /// Resolves a path the user typed against the working directory.
    public func path(_ text: String) -> URL {
        if text.hasPrefix("/") { return URL(fileURLWithPath: text).standardizedFileURL }
        return workingDirectory.appendingPathComponent(text).standardizedFileURL
    }

    /// The site folder: `--site DIR`, or the nearest folder at or above the working directory
    /// that has `content/site.yaml`.
    public func siteDirectory() throws(Diagnostic) -> URL {
        if let batch { return batch.site }
        try checkWorkingDirectory(for: siteOption)
        if let siteOption {
            let url = path(siteOption)
            try Self.checkRoomForASite(in: url)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(ContentPath.siteConfigFile).path) else {
                throw Diagnostic("\(siteOption) is not a tomo site: it has no content/site.yaml (create one with `tomo init \(siteOption)`)")
            }
            return url
        }
        // Up one folder at a time, by the path's text, to the root: it ends however long the
        // path is. A path that is not absolute (no working directory could be read) is looked
        // at alone.
        var folder = workingDirectory.standardizedFileURL.path
        while true {
            if FileManager.default.fileExists(atPath: folder + "/" + ContentPath.siteConfigFile) {
                let site = URL(fileURLWithPath: folder, isDirectory: true)
                try Self.checkRoomForASite(in: site)
                return site
            }
            guard folder.hasPrefix("/"), folder != "/", let slash = folder.lastIndex(of: "/") else { break }
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
        // Past the system's limit no file is found, a site's or not: that is what to say.
        try Self.checkRoomForASite(in: workingDirectory)
        throw Diagnostic("no tomo site here: no content/site.yaml in this folder or above it (run `tomo init`, or pass --site DIR)")
    }
}

/// Wrong use of the command line: printed with the usage line, exit status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var usage: String?

    public init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }

    public var description: String { message }
}
