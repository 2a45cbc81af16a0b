import Foundation
import TomoContent
import TomoCore
import TomoImages

/// The thumbnails of every icon and header, made (or found in the cache) on all cores.
struct PublishedImages: Sendable {
    /// By the image's path in the site (`content/users/alice/icon.jpg`).
    var bySitePath: [String: PublishedImage] = [:]
    /// Output path (`media/alice/icon-3fa01c9e-256.webp`) → the cached thumbnail's path.
    var files: [String: String] = [:]
    /// How many source images there are.
    var count: Int { bySitePath.count }

    /// Every image the content shows, by its path in the site, with the handle whose media folder
    /// publishes it and where the content names it: icons, headers and post photos.
    static func sources(of content: SiteContent) -> [(path: String, handle: String, at: SourceLocation?)] {
        var sources: [(path: String, handle: String, at: SourceLocation?)] = []
        var seen: Set<String> = []
        for profile in content.profiles {
            for (path, at) in [(profile.icon, profile.iconAt), (profile.header, profile.headerAt)] {
                guard let path, seen.insert("content/users/" + path).inserted else { continue }
                sources.append(("content/users/" + path, profile.handle, at))
            }
        }
        for post in content.posts where seen.insert(post.photoFile).inserted {
            sources.append((post.photoFile, post.handle, post.photoAt))
        }
        return sources
    }

    /// Processes every image of the content into thumbnails; reports every unreadable image at once.
    static func make(for content: SiteContent, site: URL) throws(DiagnosticList) -> PublishedImages {
        try publish(content, site: site) { sources throws(Diagnostic) in
            try ImageProcessor(cacheFolder: site.appendingPathComponent(".tomo-cache/images"), widths: content.config.imageWidths).process(sources)
        }
    }

    /// What `make` would publish, for `tomo check`: every image goes through the same tests
    /// (`ImageInspector`), nothing is decoded beyond its header and nothing is written. The
    /// "thumbnails" are the source images themselves.
    static func inspect(for content: SiteContent, site: URL) throws(DiagnosticList) -> PublishedImages {
        try publish(content, site: site) { sources throws(Diagnostic) in
            try ImageInspector(widths: content.config.imageWidths).process(sources)
        }
    }

    private static func publish(
        _ content: SiteContent, site: URL,
        with process: ([ImageSource]) throws(Diagnostic) -> [Result<ProcessedImage, Diagnostic>]
    ) throws(DiagnosticList) -> PublishedImages {
        let sources = Self.sources(of: content).map { entry in
            (path: entry.path, handle: entry.handle, source: ImageSource(path: site.path + "/" + entry.path, displayPath: entry.path, referencedAt: entry.at))
        }
        var published = PublishedImages()
        guard !sources.isEmpty else { return published }
        let results: [Result<ProcessedImage, Diagnostic>]
        do {
            results = try process(sources.map(\.source))
        } catch {
            throw DiagnosticList([error])
        }
        var problems: [Diagnostic] = []
        for (entry, result) in zip(sources, results) {
            switch result {
            case .success(let image):
                let folder = "media/" + entry.handle
                for variant in image.variants {
                    published.files[folder + "/" + variant.fileName] = variant.path
                }
                published.bySitePath[entry.path] = PublishedImage(image, folder: folder)
            case .failure(let error):
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return published
    }
}
