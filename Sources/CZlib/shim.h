#ifndef TERMMAP_CZLIB_SHIM_H
#define TERMMAP_CZLIB_SHIM_H

#include <zlib.h>

/// `inflateInit2` is a function-like macro (it passes ZLIB_VERSION and the struct size to
/// `inflateInit2_`), so Swift cannot see it; this wrapper makes it callable.
static inline int czlib_inflateInit2(z_streamp strm, int windowBits) {
  return inflateInit2(strm, windowBits);
}

/// `deflateInit2` is a macro too; this wrapper makes it callable (gzip: windowBits 31).
static inline int czlib_deflateInit2(z_streamp strm, int level, int windowBits) {
  return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

#endif
