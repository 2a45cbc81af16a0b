/// What changed in a rebuild, which decides how open pages update.
public enum ReloadKind: Sendable {
    /// Pages changed: the browser reloads.
    case page
    /// Only stylesheets changed: the browser re-fetches them and keeps its scroll position.
    case css
}
