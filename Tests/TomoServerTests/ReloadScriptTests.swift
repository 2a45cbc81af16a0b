import Foundation
import Testing
import TomoServer
import TomoTestSupport

/// Runs the browser script in Node with a fake EventSource and DOM, and fires the events the
/// server sends. Skipped where Node is not installed.
@Suite struct ReloadScriptTests {
    static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let harness = #"""
    const assert = require("assert");
    const listeners = {};
    let reloads = 0;
    globalThis.location = { href: "http://127.0.0.1:8080/alice/", reload: () => { reloads++; } };
    class MessageEvent { constructor(type, data) { this.type = type; this.data = data; } }
    globalThis.MessageEvent = MessageEvent;
    globalThis.EventSource = class { constructor(url) { assert.equal(url, "/_tomo/events"); }
      addEventListener(type, listener) { (listeners[type] ||= []).push(listener); } };
    const fire = (type, event) => (listeners[type] || []).forEach((listener) => listener(event));
    const link = { href: "http://127.0.0.1:8080/static/style.css?v=1" };
    const body = { children: [], appendChild(element) { if (!this.children.includes(element)) this.children.push(element); } };
    globalThis.document = { body, querySelectorAll: () => [link],
      createElement: () => ({ style: {}, remove() { body.children = body.children.filter((c) => c !== this); } }) };
    require(process.argv[2]);

    fire("open", {});
    assert.equal(reloads, 0);
    fire("css", new MessageEvent("css", "css"));
    assert.match(link.href, /^http:\/\/127\.0\.0\.1:8080\/static\/style\.css\?v=1&_tomo=\d+$/);
    assert.equal(reloads, 0);
    fire("error", new MessageEvent("error", JSON.stringify("content/users/bob.yaml:3:7: <b>bad</b>")));
    assert.equal(body.children.length, 1);
    assert.equal(body.children[0].textContent, "content/users/bob.yaml:3:7: <b>bad</b>");
    fire("error", new MessageEvent("error", JSON.stringify("second")));
    assert.equal(body.children.length, 1);
    assert.equal(body.children[0].textContent, "second");
    fire("clear", new MessageEvent("clear", ""));
    assert.equal(body.children.length, 0);
    fire("reload", new MessageEvent("reload", "page"));
    assert.equal(reloads, 1);
    fire("error", {});  // the connection dropped (a plain Event, not a message)
    assert.equal(body.children.length, 0);
    fire("open", {});   // and came back: the site may have changed meanwhile
    assert.equal(reloads, 2);
    console.log("ok");
    """#

    @Test(.enabled(if: node != nil, "needs Node.js"))
    func reactsToEveryEvent() throws {
        let temporary = try TemporaryFolder(prefix: "tomo-reload")
        let folder = temporary.url
        let script = folder.appendingPathComponent("reload.js")
        let harness = folder.appendingPathComponent("harness.js")
        try Data(ReloadClient.script.utf8).write(to: script)
        try Data(Self.harness.utf8).write(to: harness)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.node))
        process.arguments = [harness.path, script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text == "ok\n")
    }

    @Test func staysSmall() {
        #expect(ReloadClient.script.split(separator: "\n").count <= 35)
    }
}
