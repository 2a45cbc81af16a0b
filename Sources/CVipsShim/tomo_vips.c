#define _GNU_SOURCE  // for the writer-preferring read-write lock initialiser
#include "tomo_vips.h"
#include "shim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

// libvips keeps one error buffer for the whole process, so when two threads fail at once their
// messages mix (one image gets the other's reason, the other none). Every operation runs under
// the shared side of this lock; one that fails runs again under the exclusive side, alone, so
// the text it leaves is its own. Failures are rare, so the rerun costs nothing in a normal
// build; writers are preferred so a rerun is not starved by a stream of working images.
#ifdef PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
static pthread_rwlock_t vips_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
#else
static pthread_rwlock_t vips_lock = PTHREAD_RWLOCK_INITIALIZER;
#endif

/// libvips' error text, or NULL when it left none; clears the buffer.
static char *take_error(void) {
    char *text = vips_error_buffer_copy();
    if (text && !*text) {
        g_free(text);
        return NULL;
    }
    return text;
}

int tomo_run_isolating_errors(int (*operation)(void *), void *call, char **error) {
    *error = NULL;
    if (tomo_vips_library_open(error)) {
        return -1;
    }
    pthread_rwlock_rdlock(&vips_lock);
    int status = operation(call);
    pthread_rwlock_unlock(&vips_lock);
    if (status == 0) {
        return 0;
    }
    pthread_rwlock_wrlock(&vips_lock);
    vips_error_clear();
    status = operation(call);
    if (status != 0) {
        *error = take_error();
    }
    vips_error_clear();
    pthread_rwlock_unlock(&vips_lock);
    return status;
}

static void ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

int tomo_vips_start(char **error) {
    *error = NULL;
    if (tomo_vips_library_open(error)) {
        return -1;
    }
    if (VIPS_INIT("tomo")) {
        *error = take_error();
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
    return tomo_vips_library_is_open() ? vips_version_string() : "";
}

struct header_call {
    const char *path;
    TomoVipsHeader *header;
};

static int read_header(void *context) {
    struct header_call *call = context;
    TomoVipsHeader *header = call->header;
    VipsImage *image = vips_image_new_from_file(call->path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
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

int tomo_vips_read_header(const char *path, TomoVipsHeader *header, char **error) {
    struct header_call call = {path, header};
    return tomo_run_isolating_errors(read_header, &call, error);
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

struct thumbnail_call {
    const char *path;
    int width;
    /// A `width` square, the middle of the image cropped to fill it (enlarged when smaller).
    int square;
    VipsImage *result;
};

/// The middle square of the image at `path` (upright), `width` wide: cut before it is scaled.
/// vips_thumbnail's own crop scales the whole image to cover the square first, so a 1×3000
/// strip became 512×1,536,000 pixels (seconds and gigabytes) to keep 512×512 of them.
static int square_thumbnail(const char *path, int width, int profiled, VipsImage **out) {
    VipsImage *loaded = vips_image_new_from_file(path, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!loaded) {
        return -1;
    }
    VipsImage *upright = NULL;
    int failed = vips_autorot(loaded, &upright, NULL);
    g_object_unref(loaded);
    if (failed) {
        return -1;
    }
    int side = VIPS_MIN(upright->Xsize, upright->Ysize);
    VipsImage *middle = NULL;
    failed = vips_extract_area(upright, &middle, (upright->Xsize - side) / 2, (upright->Ysize - side) / 2, side, side, NULL);
    g_object_unref(upright);
    if (failed) {
        return -1;
    }
    failed = profiled
        ? vips_thumbnail_image(middle, out, width, "height", width, "size", VIPS_SIZE_BOTH, "export_profile", "srgb", NULL)
        : vips_thumbnail_image(middle, out, width, "height", width, "size", VIPS_SIZE_BOTH, NULL);
    g_object_unref(middle);
    return failed;
}

static int make_thumbnail(void *context) {
    struct thumbnail_call *call = context;
    const char *path = call->path;
    int width = call->width;
    int profiled = has_colour_profile(path);
    if (profiled < 0) {
        return -1;
    }
    // From the file, not from memory: in libvips 8.14 only the file loader reports a truncated
    // JPEG as an error; from a memory buffer it quietly returns a half-grey picture.
    VipsImage *thumbnail = NULL;
    int failed;
    if (call->square) {
        failed = square_thumbnail(path, width, profiled, &thumbnail);
    } else if (profiled) {
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
        return -1;
    }
    VipsImage *display = NULL;
    failed = to_display_colour(thumbnail, &display);
    g_object_unref(thumbnail);
    if (failed) {
        return -1;
    }
    // Decode now, once for both encoders, and close the file.
    VipsImage *memory = vips_image_copy_memory(display);
    g_object_unref(display);
    if (!memory) {
        return -1;
    }
    VipsImage *stripped = NULL;
    failed = vips_copy(memory, &stripped, NULL);
    g_object_unref(memory);
    if (failed) {
        return -1;
    }
    remove_metadata(stripped);
    call->result = stripped;
    return 0;
}

TomoVipsImage *tomo_vips_thumbnail(const char *path, int width, int square, char **error) {
    struct thumbnail_call call = {path, width, square, NULL};
    if (tomo_run_isolating_errors(make_thumbnail, &call, error)) {
        return NULL;
    }
    return (TomoVipsImage *)call.result;
}

int tomo_vips_image_width(const TomoVipsImage *image) {
    return vips_image_get_width(as_vips(image));
}

int tomo_vips_image_height(const TomoVipsImage *image) {
    return vips_image_get_height(as_vips(image));
}

struct save_call {
    VipsImage *image;
    int quality;
    void **bytes;
    size_t *length;
};

static int save_webp(void *context) {
    struct save_call *call = context;
    return vips_webpsave_buffer(call->image, call->bytes, call->length, "Q", call->quality, "strip", TRUE, NULL);
}

static int save_jpeg(void *context) {
    struct save_call *call = context;
    VipsImage *opaque = NULL;
    if (vips_image_hasalpha(call->image)) {
        // jpegsave would flatten onto black; white is what a page behind a logo usually is.
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        int failed = vips_flatten(call->image, &opaque, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (failed) {
            return -1;
        }
    } else {
        opaque = call->image;
        g_object_ref(opaque);
    }
    int result = vips_jpegsave_buffer(opaque, call->bytes, call->length,
        "Q", call->quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
    g_object_unref(opaque);
    return result;
}

int tomo_vips_save_webp(const TomoVipsImage *image, int quality, void **bytes, size_t *length, char **error) {
    struct save_call call = {as_vips(image), quality, bytes, length};
    return tomo_run_isolating_errors(save_webp, &call, error);
}

static int save_png(void *context) {
    struct save_call *call = context;
    return vips_pngsave_buffer(call->image, call->bytes, call->length, "compression", 9, "strip", TRUE, NULL);
}

int tomo_vips_save_png(const TomoVipsImage *image, void **bytes, size_t *length, char **error) {
    struct save_call call = {as_vips(image), 0, bytes, length};
    return tomo_run_isolating_errors(save_png, &call, error);
}

int tomo_vips_save_jpeg(const TomoVipsImage *image, int quality, void **bytes, size_t *length, char **error) {
    struct save_call call = {as_vips(image), quality, bytes, length};
    return tomo_run_isolating_errors(save_jpeg, &call, error);
}

struct pixel_call {
    const char *path;
    int x;
    int y;
    double *values;
    int bands;
};

static int read_pixel(void *context) {
    struct pixel_call *call = context;
    VipsImage *image = vips_image_new_from_file(call->path, NULL);
    if (!image) {
        return -1;
    }
    double *vector = NULL;
    int count = 0;
    int failed = vips_getpoint(image, &vector, &count, call->x, call->y, NULL);
    g_object_unref(image);
    if (failed) {
        return -1;
    }
    for (int band = 0; band < count && band < 4; band++) {
        call->values[band] = vector[band];
    }
    g_free(vector);
    call->bands = count;
    return 0;
}

int tomo_vips_read_pixel(const char *path, int x, int y, double values[4], char **error) {
    struct pixel_call call = {path, x, y, values, 0};
    if (tomo_run_isolating_errors(read_pixel, &call, error)) {
        return -1;
    }
    return call.bands;
}

struct pixels_call {
    const char *path;
    int *width;
    int *height;
    int *bands;
    unsigned char **pixels;
};

static int read_pixels(void *context) {
    struct pixels_call *call = context;
    VipsImage *image = vips_image_new_from_file(call->path, NULL);
    if (!image) {
        return -1;
    }
    VipsImage *cast = NULL;
    int failed = vips_cast(image, &cast, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(image);
    if (failed) {
        return -1;
    }
    size_t size = 0;
    *call->pixels = vips_image_write_to_memory(cast, &size);
    *call->width = vips_image_get_width(cast);
    *call->height = vips_image_get_height(cast);
    *call->bands = vips_image_get_bands(cast);
    g_object_unref(cast);
    return *call->pixels ? 0 : -1;
}

int tomo_vips_read_pixels(const char *path, int *width, int *height, int *bands, unsigned char **pixels, char **error) {
    struct pixels_call call = {path, width, height, bands, pixels};
    return tomo_run_isolating_errors(read_pixels, &call, error);
}

void tomo_vips_image_free(TomoVipsImage *image) {
    if (image) {
        g_object_unref(as_vips(image));
    }
}

void tomo_vips_free(void *memory) {
    // Without libvips the only memory handed out is the text of why it did not open (malloc).
    if (tomo_vips_library_is_open()) {
        g_free(memory);
    } else {
        free(memory);
    }
}

void tomo_vips_release_thread_memory(void) {
    if (tomo_vips_library_is_open()) {
        vips_thread_shutdown();
    }
}
