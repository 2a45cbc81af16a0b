import Testing
import TomoCore

@Suite struct IdentifiersTests {
    @Test(arguments: ["alice", "a", "user_01", String(repeating: "x", count: 30)])
    func acceptsValidHandles(handle: String) {
        #expect(Identifiers.handleProblem(handle) == nil)
    }

    @Test(arguments: ["", "Alice", "al-ice", "../etc", "a/b", "ａlice", "posts", "404", String(repeating: "x", count: 31), "a b"])
    func rejectsHandlesThatCouldNotBeSafeFolderNames(handle: String) {
        #expect(Identifiers.handleProblem(handle) != nil)
    }

    @Test func explainsTheFix() {
        #expect(Identifiers.handleProblem("Al ice") == "handle \"Al ice\" may use only a-z, 0-9 and _ (try \"al_ice\")")
        #expect(Identifiers.handleProblem("search") == "\"search\" is reserved for the site's own pages: choose another handle")
    }

    @Test(arguments: ["sunset", "2026-05-01-tokyo", "a", "0"])
    func acceptsValidSlugs(slug: String) {
        #expect(Identifiers.slugProblem(slug) == nil)
    }

    @Test(arguments: ["", "-start", "Sunset", "a_b", "..", "a/b", String(repeating: "x", count: 81)])
    func rejectsInvalidSlugs(slug: String) {
        #expect(Identifiers.slugProblem(slug) != nil)
    }
}
