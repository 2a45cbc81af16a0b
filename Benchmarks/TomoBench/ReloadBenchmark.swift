import Foundation
import Synchronization
import TomoPreview

/// The time from saving a profile file to the live-reload event of `tomo serve`, median of 20
/// saves, on the demo site and on the generated 1,000-user site. It includes the file watcher's
/// debounce (30 ms) and the rebuild.
enum ReloadBenchmark {
    static func run() throws {
        try measure(site: URL(fileURLWithPath: "."), profile: "content/users/alice.yaml", label: "demo site")
        try measure(site: try SiteBenchmark.generatedSite(users: SiteBenchmark.users), profile: "content/users/user00042.yaml", label: "1,000-user site")
    }

    static func measure(site: URL, profile: String, label: String) throws {
        let rebuilt = DispatchSemaphore(value: 0)
        var options = SitePreview.Options(site: site)
        options.port = 0
        let preview = try SitePreview.start(options) { event in
            if case .rebuilt = event { rebuilt.signal() }
        }
        defer { preview.stop() }
        let file = site.appendingPathComponent(profile)
        let original = try Data(contentsOf: file)
        defer { try? original.write(to: file) }
        var times: [Double] = []
        let clock = ContinuousClock()
        for edit in 0..<21 {
            let text = String(decoding: original, as: UTF8.self) + "\n# edit \(edit)\n"
            let start = clock.now
            try Data(text.utf8).write(to: file)
            guard rebuilt.wait(timeout: .now() + 10) == .success else {
                print("reload: \(label): no reload event within 10 s")
                return
            }
            let elapsed = clock.now - start
            if edit > 0 { times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        times.sort()
        print(String(format: "reload: %@: save → reload event, median of %d saves: %.0f ms (fastest %.0f, slowest %.0f)", label, times.count, times[times.count / 2], times[0], times[times.count - 1]))
    }
}
