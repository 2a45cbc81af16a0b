import CVipsShim

/// A decoded thumbnail in memory, freed with its owner.
final class Thumbnail {
    let image: OpaquePointer

    init(_ image: OpaquePointer) {
        self.image = image
    }

    var width: Int { Int(tomo_vips_image_width(image)) }
    var height: Int { Int(tomo_vips_image_height(image)) }

    deinit {
        tomo_vips_image_free(image)
    }
}
