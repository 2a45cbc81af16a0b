import Foundation
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

/// The build pipeline, one way: content files → validated models → a plan of every output file
/// → rendered pages → a new output folder, swapped in only when every step succeeded.
public enum SiteBuilder {
    public static func build(
        _ options: BuildOptions,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(DiagnosticList) -> BuildReport {
        let clock = ContinuousClock()
        let start = clock.now
        let inputs = try SiteInputs.load(options)
        let images = try PublishedImages.make(for: inputs.content, site: options.site)
        let model = SiteModel(inputs: inputs, images: images, buildDate: options.buildDate)
        let plan = SitePlan.files(for: model)

        let output: OutputFolder
        do {
            output = try OutputFolder(destination: options.output)
        } catch {
            throw DiagnosticList([error])
        }
        do {
            try SiteRenderer.write(plan, model: model, into: output, progress: progress)
            let counts = output.counts
            try output.commit()
            let elapsed = clock.now - start
            return BuildReport(
                pages: plan.count { $0.isPage },
                images: images.count,
                files: counts.total,
                written: counts.written,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                warnings: inputs.warnings,
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
}
