#include "tomo_vips.h"

#include <string.h>
#include <vips/vips.h>

static VipsImage *as_vips(const TomoVipsImage *image) {
    return (VipsImage *)image;
}

static void ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

int tomo_vips_start(void) {
    if (VIPS_INIT("tomo")) {
        return -1;
    }
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    // Loaders log recoverable damage as warnings on stderr; thumbnails are made with
    // fail_on=error, so what matters becomes an error value and the rest is noise.
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, ignore_log, NULL);
    return 0;
}

const char *tomo_vips_version(void) {
    return vips_version_string();
}

int tomo_vips_read_header(const char *path, TomoVipsHeader *header) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) {
        return -1;
    }
    gboolean swap = vips_image_get_orientation_swap(image);
    int width = vips_image_get_width(image);
    int height = vips_image_get_height(image);
    header->width = swap ? height : width;
    header->height = swap ? width : height;
    header->has_alpha = vips_image_hasalpha(image) ? 1 : 0;

    // "jpegload_buffer" -> "jpeg"
    memset(header->format, 0, sizeof header->format);
    const char *loader = NULL;
    if (!vips_image_get_string(image, VIPS_META_LOADER, &loader) && loader) {
        const char *end = strstr(loader, "load");
        size_t count = end ? (size_t)(end - loader) : strlen(loader);
        if (count >= sizeof header->format) {
            count = sizeof header->format - 1;
        }
        memcpy(header->format, loader, count);
    }
    g_object_unref(image);
    return 0;
}

/// 16-bit, CMYK, Lab and float images become 8-bit sRGB; grey stays grey (smaller files).
static int to_display_colour(VipsImage *in, VipsImage **out) {
    VipsInterpretation interpretation = vips_image_guess_interpretation(in);
    VipsInterpretation target = VIPS_INTERPRETATION_sRGB;
    if (interpretation == VIPS_INTERPRETATION_B_W || interpretation == VIPS_INTERPRETATION_GREY16) {
        target = VIPS_INTERPRETATION_B_W;
    }
    VipsImage *converted = NULL;
    if (interpretation != target) {
        if (vips_colourspace(in, &converted, target, NULL)) {
            return -1;
        }
    } else {
        g_object_ref(in);
        converted = in;
    }
    if (vips_image_get_format(converted) == VIPS_FORMAT_UCHAR) {
        *out = converted;
        return 0;
    }
    int result = vips_cast(converted, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(converted);
    return result;
}

/// Removes every metadata field (EXIF with GPS, XMP, IPTC, ICC, orientation, comments).
/// Needed because webpsave in libvips 8.14 ignores strip=TRUE and would copy EXIF.
/// Built-in header fields (width, bands, ...) are not metadata and vips refuses to remove them.
static void remove_metadata(VipsImage *image) {
    gchar **fields = vips_image_get_fields(image);
    for (gchar **field = fields; field && *field; field++) {
        vips_image_remove(image, *field);
    }
    g_strfreev(fields);
}

/// 1 when the file embeds an ICC profile, 0 when not, -1 when its header cannot be read.
static int has_colour_profile(const char *path) {
    VipsImage *header = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!header) {
        return -1;
    }
    int found = vips_image_get_typeof(header, VIPS_META_ICC_NAME) != 0;
    g_object_unref(header);
    return found;
}

TomoVipsImage *tomo_vips_thumbnail(const char *path, int width) {
    int profiled = has_colour_profile(path);
    if (profiled < 0) {
        return NULL;
    }
    // From the file, not from memory: in libvips 8.14 only the file loader reports a truncated
    // JPEG as an error; from a memory buffer it quietly returns a half-grey picture.
    VipsImage *thumbnail = NULL;
    int failed;
    if (profiled) {
        // Pixels of a photo with an embedded profile (Adobe RGB, Display P3) are converted to
        // sRGB before the profile is dropped, so colours stay right. Not for untagged images:
        // there libvips would run an sRGB-to-sRGB transform that visibly shifts colours.
        failed = vips_thumbnail(path, &thumbnail, width,
            "height", VIPS_MAX_COORD,
            "size", VIPS_SIZE_DOWN,
            "export_profile", "srgb",
            "fail_on", VIPS_FAIL_ON_ERROR,
            NULL);
    } else {
        // Untagged CMYK is still converted to sRGB (libvips uses its built-in CMYK profile).
        failed = vips_thumbnail(path, &thumbnail, width,
            "height", VIPS_MAX_COORD,
            "size", VIPS_SIZE_DOWN,
            "fail_on", VIPS_FAIL_ON_ERROR,
            NULL);
    }
    if (failed) {
        return NULL;
    }
    VipsImage *display = NULL;
    failed = to_display_colour(thumbnail, &display);
    g_object_unref(thumbnail);
    if (failed) {
        return NULL;
    }
    // Decode now, once for both encoders, and close the file.
    VipsImage *memory = vips_image_copy_memory(display);
    g_object_unref(display);
    if (!memory) {
        return NULL;
    }
    VipsImage *stripped = NULL;
    failed = vips_copy(memory, &stripped, NULL);
    g_object_unref(memory);
    if (failed) {
        return NULL;
    }
    remove_metadata(stripped);
    return (TomoVipsImage *)stripped;
}

int tomo_vips_image_width(const TomoVipsImage *image) {
    return vips_image_get_width(as_vips(image));
}

int tomo_vips_image_height(const TomoVipsImage *image) {
    return vips_image_get_height(as_vips(image));
}

int tomo_vips_save_webp(const TomoVipsImage *image, int quality, void **bytes, size_t *length) {
    return vips_webpsave_buffer(as_vips(image), bytes, length, "Q", quality, "strip", TRUE, NULL);
}

int tomo_vips_save_jpeg(const TomoVipsImage *image, int quality, void **bytes, size_t *length) {
    VipsImage *opaque = NULL;
    if (vips_image_hasalpha(as_vips(image))) {
        // jpegsave would flatten onto black; white is what a page behind a logo usually is.
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        int failed = vips_flatten(as_vips(image), &opaque, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (failed) {
            return -1;
        }
    } else {
        opaque = as_vips(image);
        g_object_ref(opaque);
    }
    int result = vips_jpegsave_buffer(opaque, bytes, length,
        "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
    g_object_unref(opaque);
    return result;
}

int tomo_vips_read_pixel(const char *path, int x, int y, double values[4]) {
    VipsImage *image = vips_image_new_from_file(path, NULL);
    if (!image) {
        return -1;
    }
    double *vector = NULL;
    int count = 0;
    int failed = vips_getpoint(image, &vector, &count, x, y, NULL);
    g_object_unref(image);
    if (failed) {
        return -1;
    }
    for (int band = 0; band < count && band < 4; band++) {
        values[band] = vector[band];
    }
    g_free(vector);
    return count;
}

void tomo_vips_image_free(TomoVipsImage *image) {
    if (image) {
        g_object_unref(as_vips(image));
    }
}

void tomo_vips_free(void *memory) {
    g_free(memory);
}

char *tomo_vips_take_error(void) {
    char *text = vips_error_buffer_copy();
    if (text && !*text) {
        g_free(text);
        return NULL;
    }
    return text;
}

void tomo_vips_release_thread_memory(void) {
    vips_thread_shutdown();
}
