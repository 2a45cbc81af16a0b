/// The files tomo keeps at the top of an output folder for itself, no part of the site: trees
/// of two outputs are compared without them (`.tomo-made` lists its paths in no fixed order,
/// and may still name files a failed build was about to make, so it differs between two
/// folders with the same site).
public enum OutputBookkeeping {
    /// The marker that makes the folder tomo's output.
    public static let marker = ".tomo-output"
    /// The record of the files tomo made there.
    public static let record = ".tomo-made"
}
