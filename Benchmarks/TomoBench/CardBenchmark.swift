import Foundation
import TomoCore
import TomoImages

/// Draws share cards as a site build does, from the JPEG thumbnails a site makes of camera photos
/// (320, 640 and 1280 px), for users with a profile card (header, icon, a name, a Japanese bio
/// with emoji) and ten post cards each (photo, a long caption that must be shortened, the
/// owner), as on the benchmark site. Each card shows other text, so every one is drawn and
/// encoded; first one after another on one thread, then on all cores, printing milliseconds
/// per card. `TOMO_BENCH_CARDS=N` changes how many (default 66: six users).
enum CardBenchmark {
    static func run() throws {
        let count = ProcessInfo.processInfo.environment["TOMO_BENCH_CARDS"].flatMap(Int.init) ?? 66
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tomo-bench-cards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let processor = try ImageProcessor(cacheFolder: folder.appendingPathComponent("thumbnails"))
        let pictures = try ImageBenchmark.makePhotos(count: 2, in: folder).map { source in
            let jpegs = try processor.process(source).variants(in: .jpeg)
            guard let largest = jpegs.last else { throw ImageBenchmark.BenchmarkError("no JPEG thumbnail of \(source.displayPath)") }
            return ShareCard.Picture(files: jpegs.map { .init(path: $0.path, width: $0.width, height: $0.height) }, identity: largest.fileName)
        }
        // Like the benchmark site: each user has a profile and ten posts.
        let cards = (0..<count).map { index in
            let user = index / 11
            return index.isMultiple(of: 11)
                ? ShareCard(layout: .profile, picture: pictures[0], icon: pictures[1], title: "山田 花子 \(user)", name: "", handle: "hana\(user)",
                            text: "東京のイラストレーターです🎨 水彩と猫が好き🐈 お仕事のご依頼はメールでどうぞ。", language: "ja")
                : ShareCard(layout: .post, picture: pictures[1], icon: pictures[1], title: String(repeating: "Golden hour over Tokyo Bay \(index), shot on Portra 400 🌇 ", count: 4),
                            name: "山田 花子 \(user)", handle: "hana\(user)", text: "", language: "ja")
        }
        let single = try ShareCardMaker(cacheFolder: folder.appendingPathComponent("cards-single"))
        let singleTime = try ImageBenchmark.measure {
            for card in cards { _ = try single.make(card) }
        }
        report("1 thread", drawn: single.drawCount, seconds: singleTime)
        let parallel = try ShareCardMaker(cacheFolder: folder.appendingPathComponent("cards-parallel"))
        let parallelTime = try ImageBenchmark.measure {
            for result in parallel.make(cards) { _ = try result.get() }
        }
        report("\(ProcessInfo.processInfo.activeProcessorCount) cores", drawn: parallel.drawCount, seconds: parallelTime)
        let again = try ShareCardMaker(cacheFolder: folder.appendingPathComponent("cards-parallel"))
        let againTime = try ImageBenchmark.measure {
            for result in again.make(cards) { _ = try result.get() }
        }
        print(String(format: "cards: rebuild from cache: %d drawn, %.3f s for %d cards", again.drawCount, againTime, count))
    }

    private static func report(_ label: String, drawn: Int, seconds: Double) {
        print(String(format: "cards: %@: %d cards 1200×630 (profile and post, Japanese and emoji text) in %.2f s: %.1f ms per card",
                     label, drawn, seconds, seconds * 1000 / Double(max(drawn, 1))))
    }
}
