#ifndef CTILESYNC_RASTER_SHIMS_H
#define CTILESYNC_RASTER_SHIMS_H

// libpng and libjpeg report errors by calling a function that must not return: they expect a
// longjmp back to a setjmp. Swift can do neither, so decoding and encoding through those two
// libraries happens in these C functions, which turn every library error into a return value
// and a message. libwebp needs no such help and is called from Swift directly.

#include <stddef.h>
#include <stdint.h>

/// Bytes allocated with malloc; free them with tilesync_raster_free.
typedef struct {
    uint8_t *bytes;
    size_t count;
} tilesync_raster_buffer;

/// 8-bit RGBA pixels, rows top to bottom without padding (width * 4 bytes each).
typedef struct {
    uint8_t *rgba;
    uint32_t width;
    uint32_t height;
    /// 1 when the stored samples had 16 bits and were reduced to 8.
    int reduced_precision;
} tilesync_raster_image;

enum {
    TILESYNC_RASTER_OK = 0,
    TILESYNC_RASTER_INVALID = 1,
    TILESYNC_RASTER_TOO_LARGE = 2,
    TILESYNC_RASTER_NO_MEMORY = 3,
};

enum {
    TILESYNC_PNG_COLOR_GRAY = 0,
    TILESYNC_PNG_COLOR_RGB = 2,
    TILESYNC_PNG_COLOR_PALETTE = 3,
    TILESYNC_PNG_COLOR_GRAY_ALPHA = 4,
    TILESYNC_PNG_COLOR_RGBA = 6,
};

enum {
    TILESYNC_PNG_FILTER_NONE = 0x08,
    TILESYNC_PNG_FILTER_ADAPTIVE = 0xF8,
};

/// How a PNG is written: the pixel layout (already packed into rows) and the encoder settings.
typedef struct {
    uint32_t width;
    uint32_t height;
    int color_type;
    int bit_depth;
    /// Bytes per packed row of `rows`.
    size_t row_bytes;
    /// RGB triples, `palette_count` of them (palette images only).
    const uint8_t *palette;
    int palette_count;
    /// Alpha of the first `alpha_count` palette entries (tRNS); 0 for none.
    const uint8_t *palette_alpha;
    int alpha_count;
    int compression_level;
    int filters;
    /// zlib strategy: 0 default, 1 filtered.
    int strategy;
} tilesync_png_settings;

void tilesync_raster_free(void *bytes);

/// Decodes a PNG (any colour type and depth, interlaced or not) to 8-bit RGBA. Images with more
/// than `max_pixels` pixels are refused before their pixels are decoded.
int tilesync_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                        tilesync_raster_image *image, char *message, size_t message_capacity);

/// Encodes packed rows as a PNG with the given settings.
int tilesync_png_encode(const uint8_t *rows, const tilesync_png_settings *settings,
                        tilesync_raster_buffer *output, char *message, size_t message_capacity);

/// Decodes a baseline or progressive JPEG (grey, YCbCr or RGB) to 8-bit RGBA. A stream libjpeg
/// only warns about (truncated, corrupt data; not extraneous bytes between segments) is refused.
int tilesync_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                         tilesync_raster_image *image, char *message, size_t message_capacity);

/// Encodes 8-bit RGB pixels (width * 3 bytes a row) as a JPEG of the given quality (0-100),
/// with optimized Huffman tables and 4:2:0 chroma subsampling, as cjpeg does by default.
int tilesync_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                         tilesync_raster_buffer *output, char *message, size_t message_capacity);

#endif
