#ifndef TERMMAP_CPNG_SHIM_H
#define TERMMAP_CPNG_SHIM_H

#include <png.h>

/// `PNG_IMAGE_VERSION` and the `png_image` fields are all Swift needs of libpng's simplified
/// API; the version is a macro, so it is passed through a function.
static inline unsigned int cpng_image_version(void) { return PNG_IMAGE_VERSION; }

/// `PNG_FORMAT_RGBA` is a macro built from flags; Swift sees its value through this function.
static inline unsigned int cpng_format_rgba(void) { return PNG_FORMAT_RGBA; }

#endif
