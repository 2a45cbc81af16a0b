import Foundation
import TomoServer

/// Serves a snapshot of 1,000 profile-sized pages with the preview server and measures it with
/// `wrk -t2 -c50 -d10s` on one profile page (requests/s and errors). Without wrk on PATH it
/// prints the URL and the command, and serves until standard input closes. (The time from a
/// save to the reload event, rebuild included, is the `reload` benchmark.)
enum ServerBenchmark {
    static let userCount = 1_000

    static func run() throws {
        let site = makeSite()
        var configuration = PreviewServer.Configuration()
        configuration.port = 0
        let server = try PreviewServer.start(configuration, site: site)
        defer { server.stop() }
        try measureThroughput(server: server, site: site)
    }

    private static func measureThroughput(server: PreviewServer, site: ServedSite) throws {
        let page = server.url + "alice/"
        let pageBytes = site.files["alice/index.html"]?.count ?? 0
        print("server: \(site.files.count) files (\(userCount) profile pages of about \(pageBytes / 100 * 100) bytes) at \(server.url)")
        let arguments = ["-t2", "-c50", "-d10s", page]
        guard let wrk = findOnPath("wrk") else {
            print("server: wrk is not installed; run `wrk \(arguments.joined(separator: " "))`, then close standard input (Ctrl-D) to stop")
            while readLine() != nil {}
            return
        }
        // Plain, then as browsers ask (the precompressed gzip form).
        for extra in [[], ["-H", "Accept-Encoding: gzip"]] {
            let wrkArguments = extra + arguments
            let output = try runProcess(wrk, wrkArguments)
            print("server: wrk \(wrkArguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " "))")
            print(output.split(separator: "\n").map { "server:   " + $0 }.joined(separator: "\n"))
            let requestsPerSecond = output.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }
                .map { $0.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces) } ?? "?"
            let errorLines = output.split(separator: "\n").filter {
                $0.contains("Socket errors") || $0.contains("Non-2xx")
            }
            print("server: \(requestsPerSecond) requests/s, errors: \(errorLines.isEmpty ? "none" : errorLines.joined(separator: "; "))")
        }
    }

    /// `alice`, `user1` … `user999`: a profile-like page each, plus the files every site has.
    static func makeSite() -> ServedSite {
        var files: [String: [UInt8]] = [
            "index.html": Array("<!doctype html><title>Home</title><h1>Tomo</h1>".utf8),
            "404.html": Array("<!doctype html><title>Not found</title>".utf8),
            "static/style.css": Array(String(repeating: ".item { color: #333; padding: 4px }\n", count: 80).utf8),
        ]
        for index in 0..<userCount {
            let handle = index == 0 ? "alice" : "user\(index)"
            let items = (0..<12).map { "<li class=\"item\" style=\"background:#FF8000;color:#000\"><a href=\"https://example.com/\(handle)/\($0)\">Link \($0)</a></li>" }
            let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(handle) · Tomo</title>
            <meta property="og:title" content="\(handle)"><link rel="stylesheet" href="/static/style.css"></head>
            <body><main data-handle="\(handle)"><h1>\(handle)</h1><p>Photographer in <strong>Tokyo</strong>.</p>
            <ul class="items">\(items.joined())</ul></main>\(ReloadClient.scriptTag)</body></html>
            """
            files["\(handle)/index.html"] = Array(page.utf8)
        }
        return ServedSite(files: files)
    }

    private static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func runProcess(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
