import Foundation
import Synchronization
import TomoContent
import TomoCore
import TomoImages
import TomoStore
import TomoTemplates

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

    public init(site: URL, output: URL? = nil, baseURL: String? = nil, buildDate: Date = Date()) {
        self.site = site
        self.output = output ?? site.appendingPathComponent("public")
        self.baseURL = baseURL
        self.buildDate = buildDate
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
}

/// The build pipeline, one way: content files → validated models → page views → rendered pages →
/// a new output folder, swapped in only when every step succeeded.
public enum SiteBuilder {
    /// The templates every site needs; a site may override them but not remove them.
    static let requiredTemplates = ["home", "profile", "user-list", "page", "404"]

    public static func build(
        _ options: BuildOptions,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(DiagnosticList) -> BuildReport {
        let clock = ContinuousClock()
        let start = clock.now

        let loaded = ContentLoader.load(site: options.site)
        let content = try loaded.validated()
        let theme = try Theme.load(site: options.site, language: content.config.language.rawValue)
        let store: Store
        do {
            store = try StoreFile(site: options.site).read()
        } catch {
            throw DiagnosticList([error])
        }
        let missing = requiredTemplates.filter { theme.templates[$0] == nil }
        guard missing.isEmpty else {
            throw DiagnosticList(missing.map { Diagnostic("the theme has no \($0).mustache template: add templates/\($0).mustache") })
        }
        var warnings = loaded.warnings
        let address: SiteAddress
        do {
            address = try SiteAddress(options.baseURL ?? content.config.baseURL ?? "http://localhost:8080/")
        } catch {
            throw DiagnosticList([error])
        }
        if options.baseURL == nil, content.config.baseURL == nil {
            warnings.append(Diagnostic("content/site.yaml has no baseURL: feeds, the sitemap and Open Graph use http://localhost:8080/ (add baseURL: https://your.site/ or pass --base-url)", severity: .warning))
        }

        let output: OutputFolder
        do {
            output = try OutputFolder(destination: options.output)
        } catch {
            throw DiagnosticList([error])
        }
        do {
            let (images, imageCount) = try publishImages(of: content, site: options.site, into: output)
            let profiles = Dictionary(content.profiles.map { ($0.handle, $0) }, uniquingKeysWith: { first, _ in first })
            let graph = SocialGraph(store: store, profiles: Set(profiles.keys))
            let views = PageViews(content: content, labels: Labels(values: theme.labels), graph: graph, address: address, buildDate: options.buildDate, images: images)
            let newestFirst = graph.newestFirst.compactMap { profiles[$0] }
            var jobs: [RenderJob] = [
                RenderJob(path: "index.html", template: "home", view: views.home(newestFirst: newestFirst)),
                RenderJob(path: "404.html", template: "404", view: views.notFound()),
            ]
            for profile in content.profiles {
                jobs.append(RenderJob(path: "\(profile.handle)/index.html", template: "profile", view: views.profile(profile)))
                jobs.append(RenderJob(path: "\(profile.handle)/followers/index.html", template: "user-list", view: views.userList(.followers, of: profile, profiles: profiles)))
                jobs.append(RenderJob(path: "\(profile.handle)/following/index.html", template: "user-list", view: views.userList(.following, of: profile, profiles: profiles)))
            }
            jobs += content.pages.map { RenderJob(path: "\($0.name)/index.html", template: "page", view: views.freePage($0)) }
            try render(jobs, with: theme.templates, into: output, progress: progress)

            try output.write(SiteFiles.sitemap(content: content, address: address), to: "sitemap.xml")
            try output.write(SiteFiles.searchIndex(newestFirst: newestFirst, address: address), to: "search.json")
            for (path, file) in theme.staticFiles.sorted(by: { $0.key < $1.key }) {
                guard let bytes = file.contents() else { throw Diagnostic("cannot read the theme file \(path)") }
                try output.write(bytes, to: path)
            }
            let counts = output.counts
            try output.commit()
            let elapsed = clock.now - start
            return BuildReport(
                pages: jobs.count,
                images: imageCount,
                files: counts.total,
                written: counts.written,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                warnings: warnings,
                output: output.destination
            )
        } catch let error as DiagnosticList {
            output.discard()
            throw error
        } catch let error as Diagnostic {
            output.discard()
            throw DiagnosticList([error])
        } catch {
            output.discard()
            throw DiagnosticList([Diagnostic("\(error)")])
        }
    }

    struct RenderJob: Sendable {
        var path: String
        var template: String
        var view: JSONValue
    }

    /// Renders and writes every page, on all cores.
    static func render(
        _ jobs: [RenderJob],
        with templates: TemplateLibrary,
        into output: OutputFolder,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws(DiagnosticList) {
        let problems = Mutex<[Diagnostic]>([])
        let done = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index]
            do throws(Diagnostic) {
                guard let template = templates[job.template] else {
                    throw Diagnostic("the theme has no \(job.template).mustache template")
                }
                try output.write(try templates.render(template, context: job.view), to: job.path)
            } catch {
                problems.withLock { $0.append(error) }
            }
            let finished = done.add(1, ordering: .relaxed).newValue
            if finished % 500 == 0 || finished == jobs.count { progress?(finished, jobs.count) }
        }
        let found = problems.withLock { $0 }
        guard found.isEmpty else { throw DiagnosticList(found) }
    }

    /// Makes the thumbnails of every icon and header (cached, on all cores) and publishes them
    /// under `media/<handle>/`; reports every unreadable image at once.
    static func publishImages(of content: SiteContent, site: URL, into output: OutputFolder) throws(DiagnosticList) -> (images: [String: PublishedImage], count: Int) {
        var sources: [(path: String, handle: String, source: ImageSource)] = []
        var seen: Set<String> = []
        for profile in content.profiles {
            for path in [profile.icon, profile.header].compactMap({ $0 }) where seen.insert(path).inserted {
                let file = site.appendingPathComponent("content/users").appendingPathComponent(path)
                sources.append((path, profile.handle, ImageSource(file: file, displayPath: "content/users/" + path)))
            }
        }
        guard !sources.isEmpty else { return ([:], 0) }
        let processor: ImageProcessor
        do {
            processor = try ImageProcessor(cacheFolder: site.appendingPathComponent(".tomo-cache/images"), widths: content.config.imageWidths)
        } catch {
            throw DiagnosticList([error])
        }
        var published: [String: PublishedImage] = [:]
        var problems: [Diagnostic] = []
        for (entry, result) in zip(sources, processor.process(sources.map(\.source))) {
            do {
                let image = try result.get()
                let folder = "media/" + entry.handle
                for variant in image.variants {
                    try output.linkFile(from: variant.file, to: folder + "/" + variant.fileName)
                }
                published[entry.path] = PublishedImage(image, folder: folder)
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return (published, sources.count)
    }
}
