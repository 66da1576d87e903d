#ifndef TERMMAP_CJPEG_SHIM_H
#define TERMMAP_CJPEG_SHIM_H

#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

/// libjpeg reports a fatal error by calling `error_exit`, which by default calls exit().
/// Swift cannot use setjmp/longjmp, so the whole decode runs here: the error manager jumps
/// back to this function, which frees the decompressor and returns an error code with the
/// library's message.

/// Why a decode failed.
enum {
  CJPEG_OK = 0,
  /// libjpeg refused the data (corrupt, truncated, unsupported); the message says why.
  CJPEG_ERROR = 1,
  /// The header's size is larger than the caller allows (nothing was allocated for pixels).
  CJPEG_TOO_LARGE = 2,
  /// The pixel buffer could not be allocated.
  CJPEG_NO_MEMORY = 3,
};

struct cjpeg_error_manager {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

static void cjpeg_error_exit(j_common_ptr cinfo) {
  struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
  (*cinfo->err->format_message)(cinfo, err->message);
  longjmp(err->jump, 1);
}

/// Warnings (for example "premature end of data") are not fatal: libjpeg fills in grey and
/// goes on. The decoder keeps the first one so that a truncated file can still be refused.
static void cjpeg_emit_message(j_common_ptr cinfo, int level) {
  struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
  if (level < 0) {
    if (err->base.num_warnings == 0) (*cinfo->err->format_message)(cinfo, err->message);
    err->base.num_warnings++;
  }
}

/// Decodes a baseline or progressive JPEG from memory into RGBA8 (alpha 255).
/// On CJPEG_OK, `*pixels` is a malloc'ed buffer of width * height * 4 bytes that the caller
/// frees with `cjpeg_free`. `*warnings` counts libjpeg's warnings (corrupt data it recovered
/// from). `message` (at least JMSG_LENGTH_MAX bytes) receives the error or first warning.
static inline int cjpeg_decode_rgba(const unsigned char *data, unsigned long size,
                                    unsigned int max_dimension, unsigned int *width,
                                    unsigned int *height, unsigned char **pixels,
                                    long *warnings, char *message) {
  struct jpeg_decompress_struct cinfo;
  struct cjpeg_error_manager err;
  /* volatile: read after longjmp */
  unsigned char *volatile out = NULL;
  memset(&cinfo, 0, sizeof cinfo);
  memset(&err, 0, sizeof err);
  *pixels = NULL;
  *warnings = 0;
  message[0] = 0;
  cinfo.err = jpeg_std_error(&err.base);
  err.base.error_exit = cjpeg_error_exit;
  err.base.emit_message = cjpeg_emit_message;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    free(out);
    strncpy(message, err.message, JMSG_LENGTH_MAX - 1);
    message[JMSG_LENGTH_MAX - 1] = 0;
    return CJPEG_ERROR;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, size);
  jpeg_read_header(&cinfo, TRUE);
  *width = cinfo.image_width;
  *height = cinfo.image_height;
  if (cinfo.image_width == 0 || cinfo.image_height == 0 || cinfo.image_width > max_dimension ||
      cinfo.image_height > max_dimension) {
    jpeg_destroy_decompress(&cinfo);
    return CJPEG_TOO_LARGE;
  }
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  size_t stride = (size_t)cinfo.output_width * 4;
  out = (unsigned char *)malloc(stride * cinfo.output_height);
  if (out == NULL) {
    jpeg_destroy_decompress(&cinfo);
    return CJPEG_NO_MEMORY;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = out + stride * cinfo.output_scanline;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  *width = cinfo.output_width;
  *height = cinfo.output_height;
  *warnings = err.base.num_warnings;
  if (err.base.num_warnings > 0) {
    strncpy(message, err.message, JMSG_LENGTH_MAX - 1);
    message[JMSG_LENGTH_MAX - 1] = 0;
  }
  jpeg_destroy_decompress(&cinfo);
  *pixels = out;
  return CJPEG_OK;
}

static inline void cjpeg_free(unsigned char *pixels) { free(pixels); }

/// The size of the message buffer `cjpeg_decode_rgba` needs.
static inline int cjpeg_message_length(void) { return JMSG_LENGTH_MAX; }

#endif
