/// What a value on the command line is, for the check every value passes before a command runs.
public enum ValueKind: Sendable {
    /// Text, which may end up in a content file, the store or a page: it may hold no character
    /// `ForbiddenCharacters` refuses, the rule every content file is held to.
    case text
    /// A path, handed to the file system as typed.
    case path
}
