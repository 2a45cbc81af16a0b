// Fixed-argument C entry points over libvips for Swift.
//
// libvips' API is variadic (NULL-terminated option lists), which Swift cannot call, and its
// types come from glib. This header exposes only plain C types and one opaque image pointer,
// so Swift imports nothing of glib or vips.
//
// Functions that can fail take `char **error`: on failure it receives libvips' explanation for
// that call alone (or NULL when libvips gave none), to release with tomo_vips_free. libvips'
// own error buffer is process-wide; the shim makes sure concurrent failures do not mix.
#ifndef TOMO_VIPS_H
#define TOMO_VIPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A decoded, oriented, metadata-free thumbnail held in memory (a VipsImage underneath).
typedef struct TomoVipsImage TomoVipsImage;

/// What an encoded file's header says, before any pixels are decoded.
typedef struct {
    /// Size after the EXIF orientation is applied (width and height swapped for orientations 5-8).
    int width;
    int height;
    /// 1 when the image has an alpha channel.
    int has_alpha;
    /// The libvips loader's nickname without "load..." ("jpeg", "png", "webp", "heif", ...).
    char format[32];
} TomoVipsHeader;

/// Starts libvips once per process: one thread per operation (callers run their own
/// workers), no operation cache (every image is processed once), warnings silenced (the
/// pipeline turns the ones that matter into errors). Returns 0 on success.
int tomo_vips_start(char **error);

/// The libvips version, e.g. "8.14.1": part of the cache key, since encoders change.
const char *tomo_vips_version(void);

/// Reads the header of an image file. Returns 0 on success.
int tomo_vips_read_header(const char *path, TomoVipsHeader *header, char **error);

/// Decodes the image file at `path` scaled to `width` pixels wide (never enlarged), upright by
/// its EXIF orientation, in 8-bit sRGB (or grey), with every metadata field removed; a damaged
/// or truncated file is an error. With `square`, a `width` by `width` square instead: the middle
/// of the image, cropped to fill it, enlarged when the image is smaller (an icon). Returns NULL
/// on failure.
TomoVipsImage *tomo_vips_thumbnail(const char *path, int width, int square, char **error);

int tomo_vips_image_width(const TomoVipsImage *image);
int tomo_vips_image_height(const TomoVipsImage *image);

/// Encodes as lossy WebP (alpha kept). On success returns 0 and a buffer to release with
/// tomo_vips_free. libvips 8.14 still writes a small EXIF chunk (resolution, orientation 1):
/// callers remove it from the container.
int tomo_vips_save_webp(const TomoVipsImage *image, int quality, void **bytes, size_t *length, char **error);

/// Encodes as baseline JPEG with optimised Huffman tables; transparency is flattened onto
/// white. On success returns 0 and a buffer to release with tomo_vips_free.
int tomo_vips_save_jpeg(const TomoVipsImage *image, int quality, void **bytes, size_t *length, char **error);

/// Encodes as lossless PNG (alpha kept), without metadata. On success returns 0 and a buffer to
/// release with tomo_vips_free.
int tomo_vips_save_png(const TomoVipsImage *image, void **bytes, size_t *length, char **error);

void tomo_vips_image_free(TomoVipsImage *image);

/// Reads the pixel at (x, y) of an image file as stored (no orientation applied) into `values`,
/// for tests that check what a published file shows. Returns the number of bands (at most 4
/// are copied), or -1 on failure.
int tomo_vips_read_pixel(const char *path, int x, int y, double values[4], char **error);

// Share cards: a picture painted in memory from pictures and lines of text (tomo_card.c).

/// Pango markup drawn in colour (RGBA, so emoji keep their colours) with the font description
/// `font` ("Noto Sans CJK JP Bold 48": sizes are pixels), wrapped at words (then characters)
/// to at most `width` pixels. The image is as big as the ink: measure it to fit a box.
TomoVipsImage *tomo_vips_text(const char *markup, const char *font, int width, char **error);

/// A card being painted: 8-bit sRGB pixels in memory, changed in place.
typedef struct TomoCard TomoCard;

/// A `width` × `height` card of one colour (0-255 each); NULL when memory runs out.
TomoCard *tomo_card_new(int width, int height, int red, int green, int blue);

void tomo_card_free(TomoCard *card);

/// Darkens the card under a black veil whose opacity runs from `top` at the first row to
/// `bottom` at the last (0-255), so that light text on a picture stays readable.
void tomo_card_veil(TomoCard *card, int top, int bottom);

/// A disc of one colour, `size` across, its square's corner at (`x`, `y`), with a smooth edge.
void tomo_card_disc(TomoCard *card, int x, int y, int size, int red, int green, int blue);

/// The image file at `path` scaled and cropped (from the middle) to fill `width` × `height`
/// exactly, upright, in 8-bit sRGB with transparency flattened onto white: `*pixels` receives
/// width × height × 3 bytes, row by row, to release with tomo_vips_free. Returns 0 on success.
int tomo_card_cover(const char *path, int width, int height, unsigned char **pixels, char **error);

/// The same, painted straight onto the card with its corner at (`x`, `y`) (the box must lie
/// inside the card). Returns 0 on success.
int tomo_card_cover_onto(TomoCard *card, const char *path, int x, int y, int width, int height, char **error);

/// `width` × `height` pixels of `bands` bytes each (3, or 4 with alpha), row by row, laid over
/// the card through their alpha with their corner at (`x`, `y`), clipped to the card; with
/// `circle`, only the disc inscribed in them.
void tomo_card_paint(TomoCard *card, const unsigned char *pixels, int width, int height, int bands, int x, int y, int circle);

/// The pixels of `image` in 8-bit sRGB, row by row, 3 bytes each or 4 with alpha, in a buffer
/// to release with tomo_vips_free.
int tomo_vips_image_pixels(const TomoVipsImage *image, int *width, int *height, int *bands, unsigned char **pixels, char **error);

/// Encodes the card as JPEG without metadata. On success returns 0 and a buffer to release
/// with tomo_vips_free.
int tomo_card_save_jpeg(const TomoCard *card, int quality, void **bytes, size_t *length, char **error);

/// Decodes an image file whole into 8-bit pixels, row by row, `*bands` values a pixel, for
/// tests that look at every pixel of an output. The buffer is released with tomo_vips_free.
int tomo_vips_read_pixels(const char *path, int *width, int *height, int *bands, unsigned char **pixels, char **error);

/// Releases a buffer or string this shim returned.
void tomo_vips_free(void *memory);

/// Frees libvips' per-thread buffers; call on a worker thread when it finishes an image.
void tomo_vips_release_thread_memory(void);

#ifdef __cplusplus
}
#endif

#endif
