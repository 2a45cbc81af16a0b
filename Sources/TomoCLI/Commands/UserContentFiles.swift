import Foundation
import TomoCore

/// A user's files under `content/`: the profile (`users/H.yaml` or `.json`), its images folder
/// (`users/H/`) and the posts folder (`posts/H/`). Handles are validated before they get here,
/// so every path stays inside the site.
struct UserContentFiles {
    let site: URL
    let handle: String

    var profileYAML: String { "content/users/\(handle).yaml" }
    var relativePaths: [String] {
        [profileYAML, "content/users/\(handle).json", "content/users/\(handle)", "content/posts/\(handle)"]
    }

    /// The paths that exist, relative to the site.
    var existing: [String] {
        relativePaths.filter { FileManager.default.fileExists(atPath: url($0).path) }
    }

    func url(_ relativePath: String) -> URL { site.appendingPathComponent(relativePath) }

    var hasProfile: Bool {
        existing.contains { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }
    }

    /// Writes a small valid profile with the other fields as commented examples; nil when the
    /// user already has a profile.
    func writeStarterProfile(name: String) throws(Diagnostic) -> String? {
        if hasProfile { return nil }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let text = """
        name: "\(escaped)"
        # Everything below is optional: remove the leading "# " to use a line.
        # bio: |
        #   A few words in **Markdown**.
        # icon: \(handle)/icon.jpg        # relative to content/users/
        # header: \(handle)/header.jpg
        # links:
        #   website: https://example.com
        #   instagram: https://www.instagram.com/\(handle)/
        # items:
        #   - text: Hello, I shoot film.
        #   - text: Portfolio
        #     url: https://example.com/portfolio
        #     color: orange

        """
        do {
            try FileManager.default.createDirectory(at: url("content/users"), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url(profileYAML), options: .withoutOverwriting)
        } catch {
            throw Diagnostic("cannot write \(profileYAML): \(error.localizedDescription)")
        }
        return profileYAML
    }

    /// Deletes every file of the user; the paths removed.
    func removeAll() throws(Diagnostic) -> [String] {
        let paths = existing
        for path in paths {
            do { try FileManager.default.removeItem(at: url(path)) } catch {
                throw Diagnostic("cannot remove \(path): \(error.localizedDescription)")
            }
        }
        return paths
    }

    /// The user's files that would be overwritten by renaming someone to this handle.
    var conflicts: [String] { existing }

    /// Moves every file to `other`'s places, and points the profile's `icon:`/`header:` at the
    /// renamed images folder.
    func move(to other: UserContentFiles) throws(Diagnostic) -> [String] {
        var moved: [String] = []
        for (from, to) in zip(relativePaths, other.relativePaths) where FileManager.default.fileExists(atPath: url(from).path) {
            do {
                try FileManager.default.createDirectory(at: url(to).deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: url(from), to: other.url(to))
            } catch {
                throw Diagnostic("cannot move \(from) to \(to): \(error.localizedDescription)")
            }
            moved.append("\(from) -> \(to)")
        }
        try other.repointImages(from: handle)
        return moved
    }

    /// `icon: old/icon.jpg` becomes `icon: new/icon.jpg` in the YAML profile.
    private func repointImages(from old: String) throws(Diagnostic) {
        let file = url(profileYAML)
        guard let data = FileManager.default.contents(atPath: file.path) else { return }
        var changed = false
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            for key in ["icon:", "header:"] where line.hasPrefix(key) {
                let value = line.dropFirst(key.count).drop { $0 == " " }
                if value.hasPrefix(old + "/") {
                    changed = true
                    return "\(key) \(handle)/" + value.dropFirst(old.count + 1)
                }
            }
            return String(line)
        }
        guard changed else { return }
        do { try Data(lines.joined(separator: "\n").utf8).write(to: file, options: .atomic) } catch {
            throw Diagnostic("cannot update \(profileYAML): \(error.localizedDescription)")
        }
    }
}
