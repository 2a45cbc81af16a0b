import Foundation
import Synchronization
import TomoCore
import TomoPreview

/// The time from saving a profile file to the live-reload event of `tomo serve`, median of 20
/// saves, on the demo site and on the generated 1,000-user site (and the 10,000-user one when it
/// exists), for two kinds of edit: an item's
/// text (shown on the profile page only) and the display name (shown on every page that shows the
/// user: cards, timelines, post pages). It includes the file watcher's debounce (30 ms).
enum ReloadBenchmark {
    static func run() throws {
        let generated = try SiteBenchmark.generatedSite(users: SiteBenchmark.users)
        var sites = [
            (URL(fileURLWithPath: "."), "content/users/alice.yaml", "demo site"),
            (generated, "content/users/user00042.yaml", "1,000-user site"),
        ]
        // The 10,000-user site, when `scripts/compare_hugo.py` has generated it.
        let large = URL(fileURLWithPath: "bench-out/tomo-10000")
        if FileManager.default.fileExists(atPath: large.appendingPathComponent("content/site.yaml").path) {
            sites.append((large, "content/users/user00042.yaml", "10,000-user site"))
        }
        for (site, profile, label) in sites {
            try measure(site: site, profile: profile, label: label, edit: .item)
            try measure(site: site, profile: profile, label: label, edit: .name)
        }
    }

    enum Edit: String {
        case item = "an item's text"
        case name = "the display name"

        func apply(to text: String, number: Int) -> String {
            let marker = self == .item ? "  - text: " : "name: "
            guard let range = text.range(of: marker) else { return text }
            let quoted = text[range.upperBound...].hasPrefix("\"")
            let insertion = quoted ? "\"Edit \(number) " : "Edit \(number) "
            let end = quoted ? text.index(after: range.upperBound) : range.upperBound
            return text.replacingCharacters(in: range.lowerBound..<end, with: marker + insertion)
        }
    }

    static func measure(site: URL, profile: String, label: String, edit: Edit) throws {
        let rebuilt = DispatchSemaphore(value: 0)
        let remade = Mutex(0)
        var options = SitePreview.Options(site: site)
        options.port = 0
        let preview = try SitePreview.start(options) { event in
            if case .rebuilt(let changed, let made, _, _, _) = event, changed > 0 {
                remade.withLock { $0 = made }
                rebuilt.signal()
            }
        }
        defer { preview.stop() }
        let file = site.appendingPathComponent(profile)
        let original = try Data(contentsOf: file)
        defer { try? original.write(to: file) }
        var times: [Double] = []
        let clock = ContinuousClock()
        for number in 0..<21 {
            let text = edit.apply(to: String(decoding: original, as: UTF8.self), number: number)
            let start = clock.now
            try Data(text.utf8).write(to: file)
            guard rebuilt.wait(timeout: .now() + 120) == .success else {
                print("reload: \(label): no reload event within 120 s")
                return
            }
            let elapsed = clock.now - start
            if number > 0 { times.append(elapsed.seconds * 1000) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        times.sort()
        print(String(format: "reload: %@, editing %@: save → reload event, median of %d saves: %.0f ms (fastest %.0f, slowest %.0f; %d files made again)",
                     label, edit.rawValue, times.count, times[times.count / 2], times[0], times[times.count - 1], remade.withLock { $0 }))
    }
}
