/// Lists every file of the site: which template renders it, or where its bytes come from, and
/// what it reads. Each page kind plans its own files beside its view; nothing is rendered here.
enum SitePlan {
    /// What every HTML page reads: the site's settings, the theme, the free pages' links and the
    /// theme's preview image (shown by any page without an image of its own).
    static let everyPage: [InputKey] = [.site, .theme, .pageList, .staticFile(PreviewImage.themePath)]

    static func files(for model: SiteModel) -> [PlannedFile] {
        var files: [PlannedFile] = []
        SitePages.plan(model, into: &files)
        FeedPages.plan(model, into: &files)
        ProfilePages.plan(model, into: &files)
        PostPages.plan(model, into: &files)
        TimelinePages.plan(model, into: &files)
        UserListPages.plan(model, into: &files)
        RedirectPages.plan(model, into: &files)
        return files
    }
}
