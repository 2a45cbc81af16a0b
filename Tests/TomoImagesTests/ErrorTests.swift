import Foundation
import Testing
import TomoCore
@testable import TomoImages
import TomoTestSupport

/// Bad input is a Diagnostic naming the file and saying what to do, never a crash.
@Suite struct ErrorTests {
    private func diagnostic(for file: URL, displayPath: String, referencedAt: TomoCore.SourceLocation? = nil) throws -> Diagnostic? {
        let folder = try TemporaryFolder()
        let processor = try ImageProcessor(cacheFolder: folder.cache)
        do throws(Diagnostic) {
            _ = try processor.process(ImageSource(file: file, displayPath: displayPath, referencedAt: referencedAt))
            return nil
        } catch {
            return error
        }
    }

    @Test func corruptFileIsNotAnImage() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("icon.jpg", Array("this is a text file, not a photo\n".utf8))
        let error = try #require(try diagnostic(for: file, displayPath: "content/users/alice/icon.jpg"))
        #expect(error.message == #"content/users/alice/icon.jpg: not an image libvips can read (VipsForeignLoad: content/users/alice/icon.jpg is not a known file format): use JPEG, PNG or WebP"#)
        #expect(error.location == nil)
    }

    @Test func truncatedJpegIsDamaged() throws {
        let folder = try TemporaryFolder()
        let whole = try bytes(of: fixture("landscape.jpg"))
        let file = try folder.file("cut.jpg", Array(whole.prefix(whole.count / 2)))
        let error = try #require(try diagnostic(for: file, displayPath: "content/posts/bob/cut.jpg"))
        #expect(error.message == "content/posts/bob/cut.jpg: the image is damaged or incomplete (VipsJpeg: Premature end of input file): re-export it as JPEG, PNG or WebP")
    }

    @Test func missingFileIsNamed() throws {
        let folder = try TemporaryFolder()
        let error = try #require(try diagnostic(for: folder.url.appendingPathComponent("gone.png"), displayPath: "content/users/gone.png"))
        #expect(error.message == "content/users/gone.png: no such image file")
    }

    @Test func folderIsNotReadableAsAnImage() throws {
        let folder = try TemporaryFolder()
        let error = try #require(try diagnostic(for: folder.url, displayPath: "content/users/alice"))
        #expect(error.message.hasPrefix("content/users/alice: cannot read this file"))
    }

    @Test func bracketsInAFileNameAreNotLibvipsOptions() throws {
        // libvips reads "name.jpg[shrink=2]" as a file name with load options.
        let folder = try TemporaryFolder()
        let file = try folder.file("photo[shrink=2].jpg]", try bytes(of: fixture("landscape.jpg")))
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [1280])
        #expect(try processor.variants(for: file, displayPath: "photo.jpg").width == 320)
    }

    @Test func svgIsRefusedRatherThanRasterised() throws {
        let folder = try TemporaryFolder()
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#
        let file = try folder.file("logo.svg", Array(svg.utf8))
        let error = try #require(try diagnostic(for: file, displayPath: "content/users/alice/logo.svg"))
        #expect(error.message.hasPrefix("content/users/alice/logo.svg: "))
        #expect(error.message.hasSuffix("use JPEG, PNG or WebP"))
    }

    @Test func errorPointsAtTheReferenceWhenGiven() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("icon.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let place = TomoCore.SourceLocation(file: "content/users/alice.yaml", line: 4, column: 7)
        let error = try #require(try diagnostic(for: file, displayPath: "content/users/alice/icon.png", referencedAt: place))
        #expect(error.location == place)
        #expect(error.description == "content/users/alice.yaml:4:7: content/users/alice/icon.png: not an image libvips can read: use JPEG, PNG or WebP")
    }

    @Test func oneBadImageDoesNotStopTheOthers() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.file("bad.jpg", [0xFF, 0xD8, 0xFF, 0x00])
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [100])
        let results = processor.process([
            ImageSource(file: fixture("landscape.jpg"), displayPath: "a.jpg"),
            ImageSource(file: bad, displayPath: "bad.jpg"),
            ImageSource(file: fixture("transparent.png"), displayPath: "c.png"),
        ])
        #expect(results.count == 3)
        #expect((try? results[0].get())?.displayPath == "a.jpg")
        #expect((try? results[2].get())?.displayPath == "c.png")
        guard case .failure(let error) = results[1] else {
            Issue.record("bad.jpg was accepted")
            return
        }
        #expect(error.message.hasPrefix("bad.jpg: "))
    }

    @Test func concurrentFailuresKeepTheirOwnReasons() throws {
        // libvips' error buffer is shared by all threads; each message must still be its own.
        let folder = try TemporaryFolder()
        let whole = try bytes(of: fixture("landscape.jpg"))
        var sources: [ImageSource] = []
        for index in 0..<12 {
            let cut = try folder.file("cut\(index).jpg", Array(whole.prefix(whole.count / 2 + index)))
            let text = try folder.file("text\(index).jpg", Array("not a photo \(index)".utf8))
            sources.append(ImageSource(file: cut, displayPath: "cut\(index).jpg"))
            sources.append(ImageSource(file: text, displayPath: "text\(index).jpg"))
        }
        let processor = try ImageProcessor(cacheFolder: folder.cache, widths: [100])
        for (source, result) in zip(sources, processor.process(sources)) {
            guard case .failure(let error) = result else {
                Issue.record("\(source.displayPath) was accepted")
                continue
            }
            let expected = source.displayPath.hasPrefix("cut")
                ? "\(source.displayPath): the image is damaged or incomplete (VipsJpeg: Premature end of input file): re-export it as JPEG, PNG or WebP"
                : "\(source.displayPath): not an image libvips can read (VipsForeignLoad: \(source.displayPath) is not a known file format): use JPEG, PNG or WebP"
            #expect(error.message == expected)
        }
    }

    @Test(arguments: [[Int](), [0], [320, -1], [20000]])
    func badWidthsAreRefused(widths: [Int]) throws {
        let folder = try TemporaryFolder()
        #expect(throws: Diagnostic.self) { try ImageProcessor(cacheFolder: folder.cache, widths: widths) }
    }

    @Test(arguments: [0, 101])
    func badQualityIsRefused(quality: Int) throws {
        let folder = try TemporaryFolder()
        #expect(throws: Diagnostic.self) { try ImageProcessor(cacheFolder: folder.cache, quality: quality) }
    }

    @Test func cacheFolderThatCannotBeMadeIsAnError() throws {
        let folder = try TemporaryFolder()
        let blocker = try folder.file("not-a-folder", [1])
        #expect(throws: Diagnostic.self) {
            try ImageProcessor(cacheFolder: blocker.appendingPathComponent("images"))
        }
    }
}
