#include "CTileSyncRasterShims.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jump;
    char *message;
    size_t capacity;
    int status;
    char warning[128];
} png_failure;

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} png_input;

typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
} png_output;

void tilesync_raster_free(void *bytes) { free(bytes); }

static void png_failed(png_structp png, png_const_charp text) {
    png_failure *failure = png_get_error_ptr(png);
    if (failure->warning[0]) {
        snprintf(failure->message, failure->capacity, "%s (%s)", text, failure->warning);
    } else {
        snprintf(failure->message, failure->capacity, "%s", text);
    }
    longjmp(failure->jump, 1);
}

static void png_warned(png_structp png, png_const_charp text) {
    png_failure *failure = png_get_error_ptr(png);
    if (!failure->warning[0]) snprintf(failure->warning, sizeof failure->warning, "%s", text);
}

static void png_read_bytes(png_structp png, png_bytep out, size_t length) {
    png_input *input = png_get_io_ptr(png);
    if (length > input->size - input->offset) {
        png_error(png, "the data ends early (truncated PNG)");
    }
    memcpy(out, input->data + input->offset, length);
    input->offset += length;
}

static void png_write_bytes(png_structp png, png_bytep bytes, size_t length) {
    png_output *output = png_get_io_ptr(png);
    if (length > output->capacity - output->count) {
        size_t capacity = output->capacity ? output->capacity : 16384;
        while (length > capacity - output->count) capacity *= 2;
        uint8_t *grown = realloc(output->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->count, bytes, length);
    output->count += length;
}

static void png_flush_nothing(png_structp png) { (void)png; }

static void png_set_rgba8_transforms(png_structp png, png_infop info, int *reduced) {
    int depth = png_get_bit_depth(png, info);
    int color = png_get_color_type(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (depth == 16) {
        png_set_strip_16(png);
        *reduced = 1;
    }
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
}

int tilesync_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                        tilesync_raster_image *image, char *message, size_t message_capacity) {
    png_failure failure = {.message = message, .capacity = message_capacity, .status = TILESYNC_RASTER_INVALID};
    png_input input = {.data = data, .size = size, .offset = 0};
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(message, message_capacity, "is not a PNG (no PNG signature)");
        return TILESYNC_RASTER_INVALID;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &failure, png_failed, png_warned);
    if (!png) {
        snprintf(message, message_capacity, "out of memory");
        return TILESYNC_RASTER_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(failure.jump)) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        free(pixels);
        free(rows);
        return failure.status;
    }
    if (!info) png_error(png, "out of memory");
    png_set_read_fn(png, &input, png_read_bytes);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_chunk_malloc_max(png, 64u << 20);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if ((uint64_t)width * height > max_pixels) {
        failure.status = TILESYNC_RASTER_TOO_LARGE;
        snprintf(message, message_capacity, "is %ux%u pixels, more than the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        longjmp(failure.jump, 1);
    }
    int reduced = 0;
    png_set_rgba8_transforms(png, info, &reduced);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row layout after conversion to RGBA");
    pixels = malloc((size_t)width * height * 4);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        failure.status = TILESYNC_RASTER_NO_MEMORY;
        png_error(png, "out of memory");
    }
    for (png_uint_32 row = 0; row < height; row++) rows[row] = pixels + (size_t)row * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    image->rgba = pixels;
    image->width = width;
    image->height = height;
    image->reduced_precision = reduced;
    return TILESYNC_RASTER_OK;
}

int tilesync_png_encode(const uint8_t *rows_data, const tilesync_png_settings *settings,
                        tilesync_raster_buffer *output, char *message, size_t message_capacity) {
    png_failure failure = {.message = message, .capacity = message_capacity, .status = TILESYNC_RASTER_INVALID};
    png_output written = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &failure, png_failed, png_warned);
    if (!png) {
        snprintf(message, message_capacity, "out of memory");
        return TILESYNC_RASTER_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (setjmp(failure.jump)) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(written.bytes);
        free(rows);
        return failure.status;
    }
    if (!info) png_error(png, "out of memory");
    png_set_write_fn(png, &written, png_write_bytes, png_flush_nothing);
    png_set_compression_level(png, settings->compression_level);
    png_set_compression_mem_level(png, 9);
    png_set_compression_strategy(png, settings->strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, settings->filters);
    png_set_IHDR(png, info, settings->width, settings->height, settings->bit_depth, settings->color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (settings->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int index = 0; index < settings->palette_count && index < 256; index++) {
            palette[index].red = settings->palette[index * 3];
            palette[index].green = settings->palette[index * 3 + 1];
            palette[index].blue = settings->palette[index * 3 + 2];
        }
        png_set_PLTE(png, info, palette, settings->palette_count);
        if (settings->alpha_count > 0) png_set_tRNS(png, info, settings->palette_alpha, settings->alpha_count, NULL);
    }
    rows = malloc(sizeof(png_bytep) * settings->height);
    if (!rows) png_error(png, "out of memory");
    for (uint32_t row = 0; row < settings->height; row++) rows[row] = (png_bytep)rows_data + (size_t)row * settings->row_bytes;
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    output->bytes = written.bytes;
    output->count = written.count;
    return TILESYNC_RASTER_OK;
}
