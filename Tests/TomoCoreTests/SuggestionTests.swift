import Testing
@testable import TomoCore

@Suite struct SuggestionTests {
    @Test func suggestsTheClosestWordForATypo() {
        #expect(Suggestion.closest(to: "pruple", in: ["purple", "pink", "brown"]) == "purple")
        #expect(Suggestion.closest(to: "buidl", in: ["build", "check", "serve"]) == "build")
    }

    @Test func suggestsNothingForAnUnrelatedWord() {
        #expect(Suggestion.closest(to: "xyz", in: ["build", "check", "serve"]) == nil)
    }

    @Test func hintReadsAsAPhrase() {
        #expect(Suggestion.hint(for: "tempalte", in: ["template"]) == " (did you mean \"template\"?)")
        #expect(Suggestion.hint(for: "zzz", in: ["template"]) == "")
    }
}
