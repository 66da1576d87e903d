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

/// Warnings (for example "premature end of data", corrupt entropy data) would let libjpeg
/// fill in grey and go on, through every remaining scan. A damaged tile is refused anyway, so
/// the first warning ends the decode at once, as TurboJPEG's TJPARAM_STOPONWARNING does.
static void cjpeg_emit_message(j_common_ptr cinfo, int level) {
  struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
  if (level < 0) {
    (*cinfo->err->format_message)(cinfo, err->message);
    err->base.num_warnings++;
    longjmp(err->jump, 1);
  }
}

/// The most scans a progressive JPEG may have. libjpeg decodes every scan over every block of
/// the image, and a scan can be a dozen bytes (an end-of-band run covers the whole image), so
/// a valid file of a few megabytes can hold 150,000 scans and take minutes of CPU. Real
/// encoders write 6 to 20 (libjpeg's default progression: 10 for colour, 6 for grey).
enum { CJPEG_MAX_SCANS = 100 };

/// libjpeg-turbo's documented defence against that (djpeg -maxscans, TurboJPEG's
/// TJPARAM_SCANLIMIT): a progress monitor, called as the input is consumed, that fails once
/// the scan number passes the limit.
struct cjpeg_progress {
  struct jpeg_progress_mgr base;
  unsigned long size; /* of the whole input, to report where the scan is */
};

static void cjpeg_progress_monitor(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) return;
  j_decompress_ptr d = (j_decompress_ptr)cinfo;
  if (d->input_scan_number <= CJPEG_MAX_SCANS) return;
  struct cjpeg_progress *progress = (struct cjpeg_progress *)cinfo->progress;
  struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
  unsigned long offset = progress->size - (unsigned long)d->src->bytes_in_buffer;
  snprintf(err->message, JMSG_LENGTH_MAX,
           "progressive JPEG with more than %d scans (scan %d starts before byte %lu)",
           CJPEG_MAX_SCANS, d->input_scan_number, offset);
  longjmp(err->jump, 1);
}

/// Decodes a baseline or progressive JPEG from memory into RGBA8 (alpha 255).
/// On CJPEG_OK, `*pixels` is a malloc'ed buffer of width * height * 4 bytes that the caller
/// frees with `cjpeg_free`. A warning (corrupt data libjpeg would recover from) or a scan past
/// CJPEG_MAX_SCANS is an error (CJPEG_ERROR); `*warnings` stays for callers and is 0 on success.
/// `message` (at least JMSG_LENGTH_MAX bytes) receives the error.
static inline int cjpeg_decode_rgba(const unsigned char *data, unsigned long size,
                                    unsigned int max_dimension, unsigned int *width,
                                    unsigned int *height, unsigned char **pixels,
                                    long *warnings, char *message) {
  struct jpeg_decompress_struct cinfo;
  struct cjpeg_error_manager err;
  struct cjpeg_progress progress;
  /* volatile: read after longjmp */
  unsigned char *volatile out = NULL;
  memset(&cinfo, 0, sizeof cinfo);
  memset(&err, 0, sizeof err);
  memset(&progress, 0, sizeof progress);
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
  progress.base.progress_monitor = cjpeg_progress_monitor;
  progress.size = size;
  cinfo.progress = &progress.base;
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

/// The scan limit, for tests and documentation.
static inline int cjpeg_max_scans(void) { return CJPEG_MAX_SCANS; }

/// The size of the message buffer `cjpeg_decode_rgba` needs.
static inline int cjpeg_message_length(void) { return JMSG_LENGTH_MAX; }

#endif
