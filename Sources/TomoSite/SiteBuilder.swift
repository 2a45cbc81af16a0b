import Foundation
import TomoContent
import TomoCore

/// What to build and where.
public struct BuildOptions: Sendable {
    /// The site folder (the one holding `content/site.yaml`).
    public var site: URL
    /// Where the output goes; `public/` inside the site by default.
    public var output: URL
    /// Replaces site.yaml's `baseURL` (for a preview or a staging host).
    public var baseURL: String?
    /// Items with `from`/`until` dates are shown when this date is inside them.
    public var buildDate: Date
    /// Renders and compares every file, ignoring what the last build kept in `.tomo-cache/build`.
    public var full: Bool
    /// Publishes posts and pages with `draft: true` (`--drafts`).
    public var drafts: Bool
    /// Publishes posts dated after `buildDate` now (`--future`); otherwise each one is
    /// published by the first build at or after its date.
    public var future: Bool
    /// What one sitemap file may hold: the protocol's limits, which tests lower to split a
    /// small site.
    var sitemapLimit = Sitemap.Limit.protocolLimit

    public init(site: URL, output: URL? = nil, baseURL: String? = nil, buildDate: Date = Date(), full: Bool = false, drafts: Bool = false, future: Bool = false) {
        self.site = site
        self.output = output ?? site.appendingPathComponent("public")
        self.baseURL = baseURL
        self.buildDate = buildDate
        self.full = full
        self.drafts = drafts
        self.future = future
    }
}

/// What a build did, for the summary line.
public struct BuildReport: Sendable {
    public var pages: Int
    public var images: Int
    /// Every file in the output (pages, images, static files, sitemap, search index).
    public var files: Int
    /// Files whose bytes changed (the rest were carried over untouched).
    public var written: Int
    public var seconds: Double
    public var warnings: [Diagnostic]
    public var output: URL
    /// No input file changed since the last build, so nothing was loaded or rendered.
    public var nothingChanged: Bool
    /// Where the time went, step by step (`tomo build --timings`).
    public var steps: [BuildStep] = []
}

/// One step of a build and its wall time.
public struct BuildStep: Sendable {
    public var name: String
    public var seconds: Double
}

/// Times the steps of a build.
private struct StepClock {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var last: ContinuousClock.Instant
    private(set) var steps: [BuildStep] = []

    init() {
        start = clock.now
        last = start
    }

    mutating func finished(_ name: String) {
        let now = clock.now
        steps.append(BuildStep(name: name, seconds: (now - last).seconds))
        last = now
    }

    var total: Double { (clock.now - start).seconds }
}

/// The build pipeline, one way: content files → validated models → a plan of every output file
/// → rendered pages → the output folder, changed only when every step succeeded.
///
/// A build keeps what it learnt in `BuildState`. The next one stamps the input files first and
/// stops there when none changed; otherwise it loads the site, fingerprints every input and
/// renders only the files that read a changed one (or are new), comparing them with the kept
/// hashes. `BuildOptions.full` ignores the kept state.
public enum SiteBuilder {
    public static func build(
        _ options: BuildOptions,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        waiting: (@Sendable () -> Void)? = nil
    ) throws(DiagnosticList) -> BuildReport {
        var clock = StepClock()
        if let problem = outputProblem(options) { throw DiagnosticList([problem]) }
        // One build at a time in an output, from reading what the last one kept to saving anew.
        let lock: OutputLock
        do { lock = try OutputLock(destination: options.output, waiting: waiting) } catch { throw DiagnosticList([error]) }
        defer { lock.release() }
        clock.finished("claim the output folder")
        let scan = InputStamps.take(site: options.site)
        let inputsDigest = scan.digest
        let outputPath = options.output.standardizedFileURL.path
        var previous = options.full ? nil : keptState(for: options)
        // Another tomo, base URL or publishing option makes every page again, but what the
        // output holds is still known: unchanged files are not rewritten, and the output is not
        // walked for files tomo did not make.
        let sameSetting = previous.map { $0.setting == setting(options, marker: $0.setting.marker) } ?? false
        clock.finished("stamp the input files")
        // Unchanged files show the same site until an item's `from` or `until` moment, or a
        // post's date, passes.
        if let previous, sameSetting, previous.inputs == inputsDigest, previous.nextChange.map({ options.buildDate.nanosecondsSince1970 < $0 }) ?? true {
            return BuildReport(
                pages: previous.pages, images: previous.images, files: previous.files, written: 0,
                seconds: clock.total, warnings: previous.warnings.map { Diagnostic($0, severity: .warning) },
                output: options.output.standardizedFileURL, nothingChanged: true, steps: clock.steps
            )
        }
        let stamps = scan.merged()
        ProcessMemory.releaseElsewhere(consume scan)
        // The kept fingerprints and output hashes (hundreds of thousands of lines) are read on
        // another core while this one loads and plans the site, and so are the last build's
        // stamps, to tell which files changed.
        let kept = previous.map { summary in
            Background { () -> BuildState? in
                var state = summary
                return state.loadOutputs(site: options.site) ? state : nil
            }
        }
        let inputs = Background { [previous] () -> (now: KeptInputs, changed: [String]?, lastImageOwners: UInt64?) in
            let last = sameSetting ? previous.flatMap { KeptInputs.load(site: options.site, output: outputPath, inputs: $0.inputs) } : nil
            let (now, changed) = KeptInputs.taking(stamps.byPath, comparedWith: last)
            return (now, changed, last?.imageOwners)
        }

        let loaded = try SiteInputs.load(options, stamps: stamps)
        clock.finished("load content, theme and store")
        let model = try SiteModel.make(from: loaded, options: options, stamps: stamps)
        let images = model.images
        clock.finished("thumbnails")
        // Neither needs the other: the fingerprints are brought up to date on another core
        // (none are kept when the setting changed: every file is made again) while this one plans.
        let (fingerprinted, planned) = concurrently({
            Result { () throws(DiagnosticList) in
                try fingerprints(
                    of: model, content: loaded.content, stamps: stamps, kept: sameSetting ? kept?.value : nil,
                    changedPaths: inputs.value.changed, lastImageOwners: inputs.value.lastImageOwners, options: options
                )
            }
        }, {
            Result { () throws(DiagnosticList) in try SitePlan.files(for: model, expectedCount: previous?.files) }
        })
        let (keys, changedKeys, updatedFrom) = try fingerprinted.get()
        let plan = try planned.get()
        ProcessMemory.releaseElsewhere(stamps)
        clock.finished("index the site, plan its files and " + (updatedFrom.map { "update the fingerprints of \(Plural.count($0, "changed file"))" } ?? "fingerprint its inputs"))
        previous = kept?.value
        clock.finished("read the last build's state")
        let planPaths = ChangeEngine.pathsDigest(plan)
        let (toMake, gone) = previous.map {
            ChangeEngine.filesToMake(plan, changed: changedKeys, kept: $0.outputs, samePaths: $0.planPaths == planPaths)
        } ?? (plan, [])
        clock.finished("find what changed")

        // Only files tomo made are ever deleted: those the kept state names, or without one
        // those of its record (an output an older tomo wrote has none: nothing is deleted).
        let recorded = previous != nil || lock.isNew ? nil : MadeFiles.load(output: outputPath)
        let output: OutputFolder
        do {
            output = try OutputFolder(lock: lock, kept: previous?.outputs, madeBefore: recorded)
        } catch {
            throw DiagnosticList([error])
        }
        // The record holds every file this build may make before the first one lands, so that a
        // build killed half way leaves none it does not know.
        let recordCount: Int
        do {
            recordCount = try MadeFiles.grow(kept: previous?.outputs, recorded: recorded, plan: plan, toMake: toMake, output: outputPath)
        } catch {
            output.discard()
            throw DiagnosticList([error])
        }
        // A build killed from here on leaves no state, so the next one is a full build.
        BuildState.remove(site: options.site, output: outputPath)
        do {
            output.remove(gone)
            try SiteRenderer.write(toMake, model: model, into: output, progress: progress)
            clock.finished("render and write \(Plural.count(toMake.count, "file"))")
            let counts = output.counts
            try output.commit()
            // A record that cannot shrink (a full disk) keeps naming files that are gone, which
            // only costs a deletion that finds nothing.
            if output.digests.count != recordCount { MadeFiles.save(output.digests, output: outputPath) }
            clock.finished("swap the output in")
            let pages = plan.count { $0.isPage }
            // The kept state names every planned file once; one that does not (which would be a
            // bug) is not kept, and the next build is a full one.
            if let marker = BuildState.markerIdentity(output: options.output), output.digests.count == plan.count {
                var kept = inputs.value.now
                kept.imageOwners = images.ownersDigest
                kept.save(site: options.site, output: outputPath, inputs: inputsDigest)
                BuildState(
                    setting: setting(options, marker: marker),
                    nextChange: TimedItems.nextChange(after: options.buildDate, in: model.published)?.nanosecondsSince1970,
                    pages: pages, images: images.count, files: counts.total, warnings: loaded.warnings.map(\.description),
                    inputs: inputsDigest, planPaths: planPaths, keys: keys, outputs: output.digests
                ).save(
                    // Only the keys and files of this build changed since the last one's state.
                    site: options.site, since: changedKeys == nil ? nil : previous,
                    changedKeys: changedKeys ?? [], changedPaths: toMake.map(\.path) + gone
                )
            }
            clock.finished("save the build state")
            ProcessMemory.keep(model, plan, loaded, keys, previous, output)
            return BuildReport(
                pages: pages, images: images.count, files: counts.total, written: counts.written,
                seconds: clock.total, warnings: foreignFilesWarning(output.foreignFiles, in: output.destination) + loaded.warnings, output: output.destination, nothingChanged: false,
                steps: clock.steps
            )
        } catch {
            // The output stays as it was, and so does what the last build kept; after a commit
            // that failed half way it is not, and the next build is a full one.
            output.discard()
            if output.isAsBefore { previous?.save(site: options.site, since: previous) }
            switch error {
            case let list as DiagnosticList: throw list
            case let diagnostic as Diagnostic: throw DiagnosticList([diagnostic])
            default: throw DiagnosticList([Diagnostic("\(error)")])
            }
        }
    }

    /// Every input's fingerprint, and the keys whose fingerprint differs from `kept`'s (nil
    /// without a kept state: every file is made). After an edit of profiles or posts alone the
    /// kept fingerprints are brought up to date from the files that changed (`changedPaths`, nil
    /// when files appeared or went), as `tomo serve` does; otherwise, and when a moment the last
    /// build kept (an item's `from`/`until`, a post's date) has passed or the profiles' images
    /// are published in other folders (`KeptInputs.imageOwners`), every one is made again.
    private static func fingerprints(
        of model: SiteModel, content: SiteContent, stamps: InputStamps, kept: BuildState?, changedPaths: [String]?, lastImageOwners: UInt64?, options: BuildOptions
    ) throws(DiagnosticList) -> (keys: [InputKey: UInt64], changed: Set<InputKey>?, updatedFrom: Int?) {
        guard let kept else { return (InputFingerprints.of(model, stamps: stamps), nil, nil) }
        var reload = ContentReload(everything: true)
        if let changedPaths, lastImageOwners == model.images.ownersDigest,
           kept.nextChange.map({ options.buildDate.nanosecondsSince1970 < $0 }) ?? true {
            reload = ContentReload()
            reload.add(changedPaths, content: content)
        }
        let update = InputFingerprints.updated(kept.keys, to: model, stamps: stamps, reload: reload, changedImages: [], lastBuildDate: nil)
        try InputFingerprints.check(update, of: kept.keys, model: model, stamps: stamps, who: "tomo build")
        var keys = kept.keys
        update.apply(to: &keys)
        let updatedFrom: Int? = if case .changes = update { changedPaths?.count } else { nil }
        return (keys, update.changedKeys(from: kept.keys), updatedFrom)
    }

    /// Why the output may not go where `options` put it, found before anything is made: inside
    /// a folder the build reads (`content/`, `templates/`, `static/`), its files would be read
    /// or published again by the next build. (A link that leads into one is found by the walk
    /// of the inputs, which refuses a folder holding an output's marker.)
    static func outputProblem(_ options: BuildOptions) -> Diagnostic? {
        let site = options.site.standardizedFileURL.path
        let output = options.output.standardizedFileURL.path
        // Where the folders are, links resolved (`--out lnk/posts/x` with `lnk` a link to
        // content/ is inside content/).
        let realOutput = SiteLinks.realPath(ofMaybeMissing: output)
        func isInside(_ folder: String) -> Bool {
            let path = site + "/" + folder
            return SiteLinks.isInside(output, path) || SiteLinks.isInside(realOutput, SiteLinks.realPath(path) ?? path)
        }
        for folder in InputStamps.folders where isInside(folder) {
            return Diagnostic("the output folder \(output) is inside the site's \(folder)/, which every build reads: build into a folder outside content/, templates/ and static/ (tomo build --out DIR; the default is public/)")
        }
        // The cache holds what the site's files say, private fields too (a private post's
        // caption): an output there would publish it.
        if isInside(CacheFolder.name) {
            return Diagnostic("the output folder \(output) is inside the site's \(CacheFolder.name)/, where tomo keeps what it read of the site, private fields too: build into a folder outside it (tomo build --out DIR; the default is public/)")
        }
        return nil
    }

    /// The files in the output that tomo did not make: kept, and named, with where they belong.
    private static func foreignFilesWarning(_ paths: [String], in output: URL) -> [Diagnostic] {
        guard !paths.isEmpty else { return [] }
        let shown = paths.prefix(10).joined(separator: ", ") + (paths.count > 10 ? " and \(paths.count - 10) more" : "")
        return [Diagnostic(
            "\(output.path)/ holds \(Plural.count(paths.count, "file")) tomo did not make (\(shown)): no build deletes \(paths.count == 1 ? "it" : "them"), but only what is in the site is published; to publish a file, move it into \(ContentPath.rootStaticFolder)/ in the site folder, otherwise delete it",
            severity: .warning
        )]
    }

    /// What the last build into this output kept, when it still describes the output: the same
    /// output folder (by its path and its marker). Its fingerprints count only when the rest of
    /// the setting (tomo, base URL, publishing) is the same too.
    private static func keptState(for options: BuildOptions) -> BuildState? {
        let output = options.output.standardizedFileURL.path
        guard let kept = BuildState.loadSummary(site: options.site, output: output),
              kept.setting.output == output,
              BuildState.markerIdentity(output: options.output) == kept.setting.marker
        else { return nil }
        return kept
    }

    private static func setting(_ options: BuildOptions, marker: UInt64) -> BuildState.Setting {
        BuildState.Setting(
            tool: BuildState.toolIdentity, output: options.output.standardizedFileURL.path,
            baseURL: options.baseURL ?? "", publishing: [options.drafts ? "drafts" : nil, options.future ? "future" : nil].compactMap { $0 }.joined(separator: " "),
            marker: marker
        )
    }
}

extension Date {
    /// Int64 nanoseconds end in April 2262: a later moment (an item `until: 2999-12-31`) is kept
    /// as the largest one, still later than any build.
    fileprivate var nanosecondsSince1970: Int64 {
        Int64(saturatingFloor: timeIntervalSince1970 * 1e9)
    }
}
