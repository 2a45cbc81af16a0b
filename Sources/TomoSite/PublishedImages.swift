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
    /// publishes it: icons, headers and post photos.
    static func sources(of content: SiteContent) -> [(path: String, handle: String)] {
        var sources: [(path: String, handle: String)] = []
        var seen: Set<String> = []
        for profile in content.profiles {
            for path in [profile.icon, profile.header].compactMap({ $0 }) where seen.insert("content/users/" + path).inserted {
                sources.append(("content/users/" + path, profile.handle))
            }
        }
        for post in content.posts where seen.insert(post.photoFile).inserted {
            sources.append((post.photoFile, post.handle))
        }
        return sources
    }

    /// Processes every image of the content; reports every unreadable image at once.
    static func make(for content: SiteContent, site: URL) throws(DiagnosticList) -> PublishedImages {
        let sources = Self.sources(of: content).map { entry in
            (path: entry.path, handle: entry.handle, source: ImageSource(path: site.path + "/" + entry.path, displayPath: entry.path))
        }
        var published = PublishedImages()
        guard !sources.isEmpty else { return published }
        let processor: ImageProcessor
        do {
            processor = try ImageProcessor(cacheFolder: site.appendingPathComponent(".tomo-cache/images"), widths: content.config.imageWidths)
        } catch {
            throw DiagnosticList([error])
        }
        var problems: [Diagnostic] = []
        for (entry, result) in zip(sources, processor.process(sources.map(\.source))) {
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
