import Foundation
import Synchronization
import TomoCore
import TomoImages
import TomoTemplates

/// Makes planned files on all cores: renders pages, produces generated files, publishes cached
/// ones. Collects every failure instead of stopping at the first.
enum SiteRenderer {
    /// Makes every planned file into the output folder.
    static func write(
        _ plan: [PlannedFile],
        model: SiteModel,
        into output: OutputFolder,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws(DiagnosticList) {
        let pageCount = plan.count { $0.isPage }
        let pagesDone = Atomic<Int>(0)
        try forEach(plan) { file throws(Diagnostic) in
            switch file.source {
            case .file(let source):
                try output.linkFile(from: source.text, to: file.path)
            case .page, .bytes:
                try output.write(try bytes(of: file, model: model), to: file.path)
            }
            if file.isPage {
                let done = pagesDone.add(1, ordering: .relaxed).newValue
                if done % 500 == 0 || done == pageCount { progress?(done, pageCount) }
            }
        }
    }

    /// The bytes of a page or generated file. XML files (feeds, the sitemap) go through
    /// `ForbiddenCharacters.xmlSafe`: a character XML 1.0 forbids, from a theme's template or
    /// labels, would make the whole file unreadable to a feed reader. In a debug build the
    /// file fails when it read an input its plan does not name (see `PageViews`).
    static func bytes(of file: PlannedFile, model: SiteModel) throws(Diagnostic) -> [UInt8] {
        let log = DebugChecks.enabled ? ReadLog() : nil
        let made = try madeBytes(of: file, views: log.map(model.views.recording) ?? model.views)
        if let undeclared = log?.undeclared(by: file), !undeclared.isEmpty {
            throw Diagnostic("internal error: \(file.path) read \(undeclared.map { "\($0)" }.joined(separator: ", ")), which its plan does not name: an edit of it would leave the file stale (declare it where the page kind plans the file)")
        }
        return file.path.hasSuffix(".xml") ? ForbiddenCharacters.xmlSafe(made) : made
    }

    private static func madeBytes(of file: PlannedFile, views: PageViews) throws(Diagnostic) -> [UInt8] {
        switch file.source {
        case .page(let name, let view):
            let templates = views.templates
            guard let template = templates[name] else {
                throw Diagnostic("the theme has no \(name).mustache template: add templates/\(name).mustache")
            }
            return try templates.render(template, context: view(views))
        case .bytes(let make):
            return try make(views)
        case .file(let source):
            switch RegularFile.read(source.text) {
            case .success(let bytes): return bytes
            case .failure(let failure): throw Diagnostic("cannot read \(source) to publish it as \(file.path): \(failure.reason)")
            }
        }
    }

    /// Runs `body` for every file on all cores; throws every failure together.
    static func forEach(_ plan: [PlannedFile], _ body: @Sendable (PlannedFile) throws(Diagnostic) -> Void) throws(DiagnosticList) {
        let problems = Mutex<[Diagnostic]>([])
        // Site-wide files (search index, sitemap, home page) go first: each is one long job, and
        // started last it would leave the other cores idle at the end.
        let order = plan.indices.filter { !plan[$0].path.contains("/") } + plan.indices.filter { plan[$0].path.contains("/") }
        // In runs of neighbouring files, not file by file: the files of one folder (a user's
        // posts) are made by one core at a time instead of both taking turns in the same folder,
        // where each creation waits for the folder's lock the other holds.
        _ = order.concurrentRuns(perCore: 64) { run in
            for index in run {
                do throws(Diagnostic) {
                    try body(plan[index])
                } catch {
                    problems.withLock { $0.append(error) }
                }
            }
        }
        let found = problems.withLock { $0 }
        guard found.isEmpty else { throw DiagnosticList(found) }
    }
}
