import Foundation
import TomoCore
import TomoTemplates

/// Renders a profile-like page (a layout parent, a 50-item section through a partial, links,
/// escaped Japanese and HTML-special text) many times and prints pages/s and MB/s of output.
enum TemplateBenchmark {
    static let templates: [String: String] = [
        "layout": """
        <!doctype html>
        <html lang="{{site.language}}">
        <head>
        <meta charset="utf-8">
        <title>{{$title}}{{site.title}}{{/title}}</title>
        <meta property="og:title" content="{{$ogTitle}}{{site.title}}{{/ogTitle}}">
        <meta property="og:description" content="{{site.description}}">
        <link rel="stylesheet" href="/static/style.css">
        </head>
        <body>
        <header class="site"><a href="/">{{site.title}}</a></header>
        {{$content}}
        {{/content}}
        <footer>{{#site.contact}}<a href="mailto:{{site.contact}}">{{site.contact}}</a>{{/site.contact}}</footer>
        </body>
        </html>

        """,
        "item": """
        <li class="item" style="background:{{background}};color:{{foreground}}">{{#url}}<a href="{{url}}" rel="noopener">{{text}}</a>{{/url}}{{^url}}<span>{{text}}</span>{{/url}}</li>

        """,
        "link": """
        <a class="link link-{{service}}" href="{{url}}"{{#me}} rel="me"{{/me}}><span class="label">{{label}}</span></a>

        """,
        "profile": """
        {{<layout}}
        {{$title}}{{user.name}} (@{{user.handle}}) · {{site.title}}{{/title}}
        {{$ogTitle}}{{user.name}}{{/ogTitle}}
        {{$content}}
        <main class="profile" data-handle="{{user.handle}}">
          <img class="header" src="{{user.header}}" alt="" width="1280" height="400">
          <img class="icon" src="{{user.icon}}" alt="{{user.name}}" width="160" height="160">
          <h1>{{user.name}}</h1>
          <p class="handle">@{{user.handle}}</p>
          <div class="bio">{{{user.bioHTML}}}</div>
          <nav class="links">
            {{#user.links}}
            {{>link}}
            {{/user.links}}
          </nav>
          <ul class="items">
            {{#user.items}}
            {{>item}}
            {{/user.items}}
          </ul>
          <p class="counts">{{user.followers}} followers · {{user.following}} following</p>
        </main>
        {{/content}}
        {{/layout}}

        """,
    ]

    static func context() -> JSONValue {
        let colours = ["#000000", "#555555", "#AAAAAA", "#808080", "#FF0000", "#00FF00", "#0000FF", "#00FFFF", "#FFFF00", "#FF00FF", "#FF8000", "#800080", "#996633", "#FFFFFF"]
        let items: [JSONValue] = (0..<50).map { index in
            var item: [String: JSONValue] = [
                "text": .string(index % 2 == 0 ? "写真とカメラの話 #\(index) — \"film\" & <lens> notes" : "Comment \(index): I'd like <b>bold</b> & 'quotes'"),
                "background": .string(colours[index % colours.count]),
                "foreground": .string(index % 3 == 0 ? "#ffffff" : "#000000"),
            ]
            if index % 3 != 0 { item["url"] = .string("https://example.com/items/\(index)?ref=tomo&lang=ja") }
            return .object(item)
        }
        let links: [JSONValue] = ["twitter", "instagram", "mastodon", "github", "website"].map { service in
            .object([
                "service": .string(service),
                "url": .string("https://\(service).example/@alice?x=1&y=2"),
                "label": .string(service.capitalized),
                "me": .bool(service == "mastodon"),
            ])
        }
        return .object([
            "site": .object([
                "title": .string("Tomo デモ <Profiles>"),
                "language": .string("ja"),
                "description": .string("プロフィールページ & photo posts"),
                "contact": .string("hello@example.com"),
            ]),
            "user": .object([
                "handle": .string("alice"),
                "name": .string("Alice 写真家 \"A\""),
                "icon": .string("/alice/icon-160.jpg"),
                "header": .string("/alice/header-1280.jpg"),
                "bioHTML": .string("<p>Photographer in <strong>Tokyo</strong>. 東京のフィルム写真。</p>"),
                "links": .array(links),
                "items": .array(items),
                "followers": .int(1234),
                "following": .int(56),
            ]),
        ])
    }

    static func run() throws {
        let library = try TemplateLibrary(sources: templates)
        guard let profile = library["profile"] else { return }
        let data = context()

        var output: [UInt8] = []
        try library.render(profile, context: data, into: &output)
        let pageBytes = output.count

        // Warm up, then render for about two seconds.
        let clock = ContinuousClock()
        var renders = 0
        var bytes = 0
        let start = clock.now
        while clock.now - start < .seconds(2) {
            for _ in 0..<100 {
                output.removeAll(keepingCapacity: true)
                try library.render(profile, context: data, into: &output)
                bytes += output.count
            }
            renders += 100
        }
        let elapsed = clock.now - start
        let seconds = elapsed.seconds
        let megabytesPerSecond = Double(bytes) / seconds / 1_000_000
        let pagesPerSecond = Double(renders) / seconds
        print(String(format: "templates: profile page %.1f KB (layout parent, 50-item partial, escaped Japanese and HTML text)", Double(pageBytes) / 1000))
        print(String(format: "templates: %d renders in %.2f s on one thread: %.0f pages/s, %.1f MB/s", renders, seconds, pagesPerSecond, megabytesPerSecond))
    }
}
