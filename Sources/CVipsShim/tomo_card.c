// Share cards: pictures and text from libvips, put together in plain memory.
//
// A card is one 1200×630 picture with a few small layers on it (an icon, lines of text). Letting
// vips_composite blend them costs more than everything else a card needs, since it works in
// floating point over the whole canvas for every layer; a card is instead painted in place, in
// 8-bit sRGB, touching only the pixels each layer covers.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

struct TomoCard {
    int width;
    int height;
    /// Row by row, 3 bytes a pixel.
    unsigned char *pixels;
};

/// `*image` as 8-bit sRGB of `bands` bands (3, or 4 when it has alpha); takes over the
/// caller's reference.
static int to_srgb(VipsImage **image, int bands) {
    if (vips_image_get_bands(*image) != bands || vips_image_guess_interpretation(*image) != VIPS_INTERPRETATION_sRGB) {
        VipsImage *colour = NULL;
        int failed = vips_colourspace(*image, &colour, VIPS_INTERPRETATION_sRGB, NULL);
        g_object_unref(*image);
        *image = colour;
        if (failed) {
            return -1;
        }
    }
    if (vips_image_get_format(*image) != VIPS_FORMAT_UCHAR) {
        VipsImage *cast = NULL;
        int failed = vips_cast(*image, &cast, VIPS_FORMAT_UCHAR, NULL);
        g_object_unref(*image);
        *image = cast;
        if (failed) {
            return -1;
        }
    }
    if (vips_image_get_bands(*image) != bands) {
        vips_error("tomo", "an image of %d bands cannot be laid on a card", vips_image_get_bands(*image));
        g_object_unref(*image);
        *image = NULL;
        return -1;
    }
    return 0;
}

/// `in` as 3-band 8-bit sRGB, transparency flattened onto white.
static int to_opaque_srgb(VipsImage *in, VipsImage **out) {
    VipsImage *current = in;
    g_object_ref(current);
    if (vips_image_hasalpha(current)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        VipsImage *flat = NULL;
        int failed = vips_flatten(current, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        g_object_unref(current);
        if (failed) {
            return -1;
        }
        current = flat;
    }
    if (to_srgb(&current, 3)) {
        return -1;
    }
    *out = current;
    return 0;
}

// MARK: Cover: a picture scaled and cropped to fill a box

/// Which input pixels make one output pixel along one axis, and how much each counts.
struct taps {
    /// Per output pixel, `most` input pixels (edges repeated) and their weights in fixed point,
    /// which sum to 1 << 14; `count` of them are used.
    int *index;
    int32_t *weights;
    int *count;
    int most;
};

static void free_taps(struct taps *taps) {
    free(taps->index);
    free(taps->weights);
    free(taps->count);
}

/// The taps of a triangle filter that maps `in` pixels, scaled by `scale`, with the first
/// `offset` scaled pixels cropped away, onto `out` pixels: bilinear when enlarging, and
/// averaging over 1/scale input pixels when reducing, so nothing aliases. Pixels beyond the
/// edge repeat the edge. Returns 0, or -1 when memory runs out.
static int make_taps(struct taps *taps, int out, int in, double scale, double offset) {
    double radius = scale < 1 ? 1 / scale : 1;
    taps->most = (int)ceil(2 * radius) + 1;
    size_t slots = (size_t)out * (size_t)taps->most;
    taps->index = calloc(slots, sizeof(int));
    taps->weights = calloc(slots, sizeof(int32_t));
    taps->count = calloc((size_t)out, sizeof(int));
    double *raw = malloc(sizeof(double) * (size_t)taps->most);
    if (!taps->index || !taps->weights || !taps->count || !raw) {
        free_taps(taps);
        free(raw);
        return -1;
    }
    for (int pixel = 0; pixel < out; pixel++) {
        double centre = (pixel + offset + 0.5) / scale - 0.5;
        int first = (int)ceil(centre - radius), last = (int)floor(centre + radius);
        if (last - first + 1 > taps->most) {
            last = first + taps->most - 1;
        }
        double total = 0;
        for (int tap = first; tap <= last; tap++) {
            double weight = 1 - fabs(tap - centre) / radius;
            raw[tap - first] = weight > 0 ? weight : 0;
            total += raw[tap - first];
        }
        int *index = taps->index + (size_t)pixel * (size_t)taps->most;
        int32_t *weights = taps->weights + (size_t)pixel * (size_t)taps->most;
        int32_t sum = 0;
        for (int tap = 0; tap <= last - first; tap++) {
            int at = first + tap;
            index[tap] = at < 0 ? 0 : at >= in ? in - 1 : at;
            weights[tap] = total > 0 ? (int32_t)lround(raw[tap] / total * (1 << 14)) : 0;
            sum += weights[tap];
        }
        // Rounding must not brighten or darken: what is left goes to the middle tap.
        weights[(last - first) / 2] += (1 << 14) - sum;
        taps->count[pixel] = last - first + 1;
    }
    free(raw);
    return 0;
}

static inline unsigned char fixed_to_byte(int32_t value) {
    int32_t rounded = (value + (1 << 13)) >> 14;
    return (unsigned char)(rounded < 0 ? 0 : rounded > 255 ? 255 : rounded);
}

/// `source` (`in_width` × `in_height`, 3 bytes a pixel) scaled to cover `width` × `height`
/// and cropped from the middle, into `target`, whose rows start `target_stride` bytes apart.
/// Returns 0, or -1 when memory runs out.
///
/// Down first, over only the columns some output pixel reads: that pass walks whole rows, which
/// the compiler turns into vector code, and it leaves the pass across, which cannot be, with
/// `height` rows instead of `in_height`.
static int resample_cover(const unsigned char *source, int in_width, int in_height, unsigned char *target, size_t target_stride, int width, int height) {
    double scale = fmax((double)width / in_width, (double)height / in_height);
    struct taps across = {0}, down = {0};
    if (make_taps(&across, width, in_width, scale, (in_width * scale - width) / 2)) {
        return -1;
    }
    if (make_taps(&down, height, in_height, scale, (in_height * scale - height) / 2)) {
        free_taps(&across);
        return -1;
    }
    // The columns read: taps run left to right, and so do output pixels.
    int left = across.index[0];
    int right = across.index[(size_t)(width - 1) * (size_t)across.most + (size_t)across.count[width - 1] - 1];
    size_t in_stride = (size_t)in_width * 3, span = (size_t)(right - left + 1) * 3;
    unsigned char *rows = malloc(span * (size_t)height);
    float *sums = malloc(sizeof(float) * span);
    if (!rows || !sums) {
        free(rows);
        free(sums);
        free_taps(&across);
        free_taps(&down);
        return -1;
    }
    for (int y = 0; y < height; y++) {
        for (size_t x = 0; x < span; x++) {
            sums[x] = 0.5f;
        }
        for (int tap = 0; tap < down.count[y]; tap++) {
            size_t slot = (size_t)y * (size_t)down.most + (size_t)tap;
            const unsigned char *row = source + (size_t)down.index[slot] * in_stride + (size_t)left * 3;
            float weight = down.weights[slot] / (float)(1 << 14);
            for (size_t x = 0; x < span; x++) {
                sums[x] += weight * row[x];
            }
        }
        unsigned char *result = rows + (size_t)y * span;
        for (size_t x = 0; x < span; x++) {
            float value = sums[x];
            result[x] = (unsigned char)(value < 0 ? 0 : value > 255 ? 255 : value);
        }
    }
    for (int y = 0; y < height; y++) {
        const unsigned char *row = rows + (size_t)y * span - (size_t)left * 3;
        unsigned char *result = target + (size_t)y * target_stride;
        for (int x = 0; x < width; x++) {
            const int *index = across.index + (size_t)x * (size_t)across.most;
            const int32_t *weights = across.weights + (size_t)x * (size_t)across.most;
            int count = across.count[x];
            int32_t red = 0, green = 0, blue = 0;
            if (index[count - 1] - index[0] == count - 1) {
                // Away from the edges the taps are neighbours: no index to look up.
                const unsigned char *pixel = row + (size_t)index[0] * 3;
                for (int tap = 0; tap < count; tap++, pixel += 3) {
                    red += weights[tap] * pixel[0];
                    green += weights[tap] * pixel[1];
                    blue += weights[tap] * pixel[2];
                }
            } else {
                for (int tap = 0; tap < count; tap++) {
                    const unsigned char *pixel = row + (size_t)index[tap] * 3;
                    red += weights[tap] * pixel[0];
                    green += weights[tap] * pixel[1];
                    blue += weights[tap] * pixel[2];
                }
            }
            result[x * 3] = fixed_to_byte(red);
            result[x * 3 + 1] = fixed_to_byte(green);
            result[x * 3 + 2] = fixed_to_byte(blue);
        }
    }
    free(rows);
    free(sums);
    free_taps(&across);
    free_taps(&down);
    return 0;
}

struct cover_call {
    const char *path;
    int width;
    int height;
    /// Where the pixels go, rows `stride` bytes apart.
    unsigned char *target;
    size_t stride;
};

/// Opens `path` upright; a JPEG shrunk while it is decoded by `shrink` (1, 2, 4 or 8).
static VipsImage *open_upright(const char *path, int shrink) {
    VipsImage *image = shrink > 1
        ? vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, "shrink", shrink, NULL)
        : vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) {
        return NULL;
    }
    VipsImage *upright = NULL;
    int failed = vips_autorot(image, &upright, NULL);
    g_object_unref(image);
    return failed ? NULL : upright;
}

static int make_cover(void *context) {
    struct cover_call *call = context;
    VipsImage *image = open_upright(call->path, 1);
    if (!image) {
        return -1;
    }
    // A JPEG decodes fastest at a power-of-two fraction of its size: the smallest one that
    // still covers the box (only the header is read so far).
    double scale = fmax((double)call->width / vips_image_get_width(image), (double)call->height / vips_image_get_height(image));
    const char *loader = vips_foreign_find_load(call->path);
    int shrink = 1;
    while (loader && strstr(loader, "Jpeg") && shrink < 8 && scale * shrink * 2 <= 1) {
        shrink *= 2;
    }
    if (shrink > 1) {
        g_object_unref(image);
        if (!(image = open_upright(call->path, shrink))) {
            return -1;
        }
    }
    VipsImage *opaque = NULL;
    int failed = to_opaque_srgb(image, &opaque);
    g_object_unref(image);
    if (failed) {
        return -1;
    }
    size_t size = 0;
    unsigned char *source = vips_image_write_to_memory(opaque, &size);
    int in_width = vips_image_get_width(opaque), in_height = vips_image_get_height(opaque);
    g_object_unref(opaque);
    if (!source) {
        return -1;
    }
    failed = resample_cover(source, in_width, in_height, call->target, call->stride, call->width, call->height);
    g_free(source);
    if (failed) {
        vips_error("tomo", "out of memory scaling %s", call->path);
        return -1;
    }
    return 0;
}

int tomo_card_cover(const char *path, int width, int height, unsigned char **pixels, char **error) {
    *error = NULL;
    if (width <= 0 || height <= 0 || tomo_vips_library_open(error)) {
        return -1;
    }
    struct cover_call call = {path, width, height, g_malloc((size_t)width * (size_t)height * 3), (size_t)width * 3};
    if (tomo_run_isolating_errors(make_cover, &call, error)) {
        g_free(call.target);
        return -1;
    }
    *pixels = call.target;
    return 0;
}

int tomo_card_cover_onto(TomoCard *card, const char *path, int x, int y, int width, int height, char **error) {
    *error = NULL;
    if (width <= 0 || height <= 0 || x < 0 || y < 0 || x > card->width - width || y > card->height - height) {
        return -1;
    }
    unsigned char *corner = card->pixels + ((size_t)y * (size_t)card->width + (size_t)x) * 3;
    struct cover_call call = {path, width, height, corner, (size_t)card->width * 3};
    return tomo_run_isolating_errors(make_cover, &call, error);
}

struct text_call {
    const char *markup;
    const char *font;
    int width;
    VipsImage *result;
};

static int make_text(void *context) {
    struct text_call *call = context;
    VipsImage *text = NULL;
    if (vips_text(&text, call->markup,
            "font", call->font,
            "width", call->width,
            "dpi", 72,
            "rgba", TRUE,
            "wrap", VIPS_TEXT_WRAP_WORD_CHAR,
            NULL)) {
        return -1;
    }
    call->result = text;
    return 0;
}

TomoVipsImage *tomo_vips_text(const char *markup, const char *font, int width, char **error) {
    struct text_call call = {markup, font, width, NULL};
    if (tomo_run_isolating_errors(make_text, &call, error)) {
        return NULL;
    }
    return (TomoVipsImage *)call.result;
}


TomoCard *tomo_card_new(int width, int height, int red, int green, int blue) {
    if (width <= 0 || height <= 0) {
        return NULL;
    }
    TomoCard *card = malloc(sizeof *card);
    unsigned char *pixels = malloc((size_t)width * (size_t)height * 3);
    if (!card || !pixels) {
        free(card);
        free(pixels);
        return NULL;
    }
    for (size_t index = 0; index < (size_t)width * (size_t)height; index++) {
        pixels[index * 3] = (unsigned char)red;
        pixels[index * 3 + 1] = (unsigned char)green;
        pixels[index * 3 + 2] = (unsigned char)blue;
    }
    *card = (TomoCard){width, height, pixels};
    return card;
}

void tomo_card_free(TomoCard *card) {
    if (card) {
        free(card->pixels);
        free(card);
    }
}

/// `over` laid on `under` with opacity `alpha` (0-255), rounded.
static inline unsigned char blend(unsigned char under, unsigned char over, unsigned alpha) {
    return (unsigned char)((over * alpha + under * (255 - alpha) + 127) / 255);
}

void tomo_card_veil(TomoCard *card, int top, int bottom) {
    int span = card->height > 1 ? card->height - 1 : 1;
    for (int y = 0; y < card->height; y++) {
        unsigned alpha = (unsigned)lround(top + (double)(bottom - top) * y / span);
        unsigned char *row = card->pixels + (size_t)y * (size_t)card->width * 3;
        for (int x = 0; x < card->width * 3; x++) {
            row[x] = blend(row[x], 0, alpha);
        }
    }
}

/// How much of the pixel (x, y) of a `size` square the disc inscribed in it covers, 0-255:
/// one pixel of soft edge, roughly the pixel's area inside the circle.
static inline unsigned disc_coverage(int x, int y, int size) {
    double radius = size / 2.0;
    double dx = x + 0.5 - radius, dy = y + 0.5 - radius;
    double coverage = radius - sqrt(dx * dx + dy * dy) + 0.5;
    return coverage <= 0 ? 0 : coverage >= 1 ? 255 : (unsigned)(coverage * 255);
}

void tomo_card_paint(TomoCard *card, const unsigned char *pixels, int width, int height, int bands, int left, int top, int circle) {
    if (!pixels || width <= 0 || height <= 0 || (bands != 3 && bands != 4)) {
        return;
    }
    int x0 = left < 0 ? -left : 0, y0 = top < 0 ? -top : 0;
    int x1 = width, y1 = height;
    if ((int64_t)left + x1 > card->width) x1 = card->width - left;
    if ((int64_t)top + y1 > card->height) y1 = card->height - top;
    if (x0 >= x1 || y0 >= y1) {
        return;
    }
    int size = width < height ? width : height;
    for (int y = y0; y < y1; y++) {
        const unsigned char *source = pixels + ((size_t)y * (size_t)width + (size_t)x0) * (size_t)bands;
        unsigned char *target = card->pixels + ((size_t)(top + y) * (size_t)card->width + (size_t)(left + x0)) * 3;
        if (bands == 3 && !circle) {
            // Opaque: nothing to blend.
            memcpy(target, source, (size_t)(x1 - x0) * 3);
            continue;
        }
        for (int x = x0; x < x1; x++, source += bands, target += 3) {
            unsigned alpha = bands == 4 ? source[3] : 255;
            if (circle) {
                alpha = (alpha * disc_coverage(x, y, size) + 127) / 255;
            }
            if (alpha == 0) {
                continue;
            }
            target[0] = blend(target[0], source[0], alpha);
            target[1] = blend(target[1], source[1], alpha);
            target[2] = blend(target[2], source[2], alpha);
        }
    }
}

void tomo_card_disc(TomoCard *card, int x, int y, int size, int red, int green, int blue) {
    if (size <= 0) {
        return;
    }
    unsigned char *pixels = malloc((size_t)size * (size_t)size * 3);
    if (!pixels) {
        return;
    }
    for (size_t index = 0; index < (size_t)size * (size_t)size; index++) {
        pixels[index * 3] = (unsigned char)red;
        pixels[index * 3 + 1] = (unsigned char)green;
        pixels[index * 3 + 2] = (unsigned char)blue;
    }
    tomo_card_paint(card, pixels, size, size, 3, x, y, 1);
    free(pixels);
}

struct image_pixels_call {
    VipsImage *image;
    int *width;
    int *height;
    int *bands;
    unsigned char **pixels;
};

static int read_rgb(void *context) {
    struct image_pixels_call *call = context;
    VipsImage *current = call->image;
    g_object_ref(current);
    int bands = vips_image_hasalpha(current) ? 4 : 3;
    if (to_srgb(&current, bands)) {
        return -1;
    }
    size_t size = 0;
    *call->pixels = vips_image_write_to_memory(current, &size);
    *call->width = vips_image_get_width(current);
    *call->height = vips_image_get_height(current);
    *call->bands = bands;
    g_object_unref(current);
    return *call->pixels ? 0 : -1;
}

int tomo_vips_image_pixels(const TomoVipsImage *image, int *width, int *height, int *bands, unsigned char **pixels, char **error) {
    struct image_pixels_call call = {as_vips(image), width, height, bands, pixels};
    return tomo_run_isolating_errors(read_rgb, &call, error);
}

struct card_save_call {
    const TomoCard *card;
    int quality;
    void **bytes;
    size_t *length;
};

/// Without optimised Huffman tables: they make a card about a tenth smaller and its encoding
/// twice as slow, and cards are many and fetched only by link-preview robots.
static int save_card(void *context) {
    struct card_save_call *call = context;
    const TomoCard *card = call->card;
    VipsImage *image = vips_image_new_from_memory(card->pixels, (size_t)card->width * (size_t)card->height * 3,
        card->width, card->height, 3, VIPS_FORMAT_UCHAR);
    if (!image) {
        return -1;
    }
    int failed = vips_jpegsave_buffer(image, call->bytes, call->length, "Q", call->quality, "strip", TRUE, "optimize_coding", FALSE, NULL);
    g_object_unref(image);
    return failed;
}

int tomo_card_save_jpeg(const TomoCard *card, int quality, void **bytes, size_t *length, char **error) {
    struct card_save_call call = {card, quality, bytes, length};
    return tomo_run_isolating_errors(save_card, &call, error);
}
