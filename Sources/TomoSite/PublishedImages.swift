import Foundation
import TomoContent
import TomoCore
import TomoImages

/// The thumbnails of every icon and header, made (or found in the cache) on all cores.
struct PublishedImages: Sendable {
    /// By the image's path inside `content/users/` (`alice/icon.jpg`).
    var byContentPath: [String: PublishedImage] = [:]
    /// Output path (`media/alice/icon-3fa01c9e-256.webp`) → the cached thumbnail file.
    var files: [String: URL] = [:]
    /// How many source images there are.
    var count: Int { byContentPath.count }

    /// Processes every profile's icon and header; reports every unreadable image at once.
    static func make(for content: SiteContent, site: URL) throws(DiagnosticList) -> PublishedImages {
        var sources: [(path: String, handle: String, source: ImageSource)] = []
        var seen: Set<String> = []
        for profile in content.profiles {
            for path in [profile.icon, profile.header].compactMap({ $0 }) where seen.insert(path).inserted {
                let file = site.appendingPathComponent("content/users").appendingPathComponent(path)
                sources.append((path, profile.handle, ImageSource(file: file, displayPath: "content/users/" + path)))
            }
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
                    published.files[folder + "/" + variant.fileName] = variant.file
                }
                published.byContentPath[entry.path] = PublishedImage(image, folder: folder)
            case .failure(let error):
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return published
    }
}
