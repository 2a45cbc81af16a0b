extension StringProtocol {
    /// The text without white space (spaces, tabs, line breaks, Unicode spaces) at either end.
    /// Walks Unicode scalars: Foundation's `trimmingCharacters(in:)` bridges through NSString
    /// and was a visible part of loading 100,000 posts.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
