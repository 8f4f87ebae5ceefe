#include "CTileSyncRasterShims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
    size_t capacity;
    int warnings;
    int status;
} jpeg_failure;

static void jpeg_failed(j_common_ptr info) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(failure->message, failure->capacity, "%s", text);
    longjmp(failure->jump, 1);
}

// Warnings about damaged data (a truncated stream that libjpeg fills with grey, a lost marker)
// fail the decoding; extraneous bytes between segments, which lose no pixel, do not.
static void jpeg_noted(j_common_ptr info, int level) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    if (level >= 0 || info->err->msg_code == JWRN_EXTRANEOUS_DATA || failure->warnings++ > 0) return;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(failure->message, failure->capacity, "%s", text);
}

int tilesync_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                         tilesync_raster_image *image, char *message, size_t message_capacity) {
    if (size < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) {
        snprintf(message, message_capacity, "is not a JPEG (no JPEG signature)");
        return TILESYNC_RASTER_INVALID;
    }
    struct jpeg_decompress_struct info;
    jpeg_failure failure = {.message = message, .capacity = message_capacity, .status = TILESYNC_RASTER_INVALID};
    info.err = jpeg_std_error(&failure.base);
    failure.base.error_exit = jpeg_failed;
    failure.base.emit_message = jpeg_noted;
    uint8_t *volatile pixels = NULL;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return failure.status;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    if ((uint64_t)info.image_width * info.image_height > max_pixels) {
        failure.status = TILESYNC_RASTER_TOO_LARGE;
        snprintf(message, message_capacity, "is %ux%u pixels, more than the limit of %llu pixels",
                 (unsigned)info.image_width, (unsigned)info.image_height, (unsigned long long)max_pixels);
        longjmp(failure.jump, 1);
    }
    if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
        snprintf(message, message_capacity, "is a CMYK JPEG, which has no RGB pixels to re-encode");
        longjmp(failure.jump, 1);
    }
    info.out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 4;
    pixels = malloc(stride * info.output_height);
    if (!pixels) {
        failure.status = TILESYNC_RASTER_NO_MEMORY;
        snprintf(message, message_capacity, "out of memory");
        longjmp(failure.jump, 1);
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    if (failure.warnings > 0) {
        char text[JMSG_LENGTH_MAX];
        snprintf(text, sizeof text, "%s", message);
        snprintf(message, message_capacity, "is damaged: %s", text);
        longjmp(failure.jump, 1);
    }
    image->rgba = pixels;
    image->width = info.output_width;
    image->height = info.output_height;
    image->reduced_precision = 0;
    jpeg_destroy_decompress(&info);
    return TILESYNC_RASTER_OK;
}

int tilesync_jpeg_encode(const uint8_t *rgb, uint32_t width, uint32_t height, int quality,
                         tilesync_raster_buffer *output, char *message, size_t message_capacity) {
    struct jpeg_compress_struct info;
    jpeg_failure failure = {.message = message, .capacity = message_capacity, .status = TILESYNC_RASTER_INVALID};
    info.err = jpeg_std_error(&failure.base);
    failure.base.error_exit = jpeg_failed;
    failure.base.emit_message = jpeg_noted;
    unsigned char *volatile bytes = NULL;
    unsigned long count = 0;
    if (setjmp(failure.jump)) {
        jpeg_destroy_compress(&info);
        free(bytes);
        return failure.status;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&bytes, &count);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.optimize_coding = TRUE;
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * 3;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)rgb + stride * info.next_scanline;
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    output->bytes = bytes;
    output->count = count;
    return TILESYNC_RASTER_OK;
}
