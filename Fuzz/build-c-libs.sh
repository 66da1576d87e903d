#!/usr/bin/env bash
# Builds libjpeg-turbo and libpng, the versions Debian 12 ships (2.1.5, 1.6.39), as static
# libraries with libFuzzer coverage and AddressSanitizer, so that FuzzJPEG and FuzzPNG see
# inside the decoders. Usage: bash Fuzz/build-c-libs.sh [DIR]   (default /tmp/termmap-fuzz-libs)
# then: TERMMAP_FUZZ_LIBS=DIR/lib bash Fuzz/run.sh 1000000 FuzzJPEG FuzzPNG
# Needs git, cmake and the clang of the Swift toolchain. Development time only.
set -euo pipefail
OUT=${1:-/tmp/termmap-fuzz-libs}
CLANG=${CC:-$(dirname "$(command -v swift)")/clang}
FLAGS="-O1 -g -fsanitize=fuzzer-no-link,address"
mkdir -p "$OUT/src" "$OUT/lib"
build() { # name repository tag target library
  local dir="$OUT/src/$1"
  [ -d "$dir" ] || git clone --quiet --depth 1 --branch "$3" "$2" "$dir"
  cmake -S "$dir" -B "$dir/build" -DCMAKE_C_COMPILER="$CLANG" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="" -DCMAKE_C_FLAGS="$FLAGS" -DCMAKE_POSITION_INDEPENDENT_CODE=1 \
    "${@:6}" >/dev/null
  cmake --build "$dir/build" --target "$4" -j 2 >/dev/null
  cp "$dir/build/$5" "$OUT/lib/"
}
build libjpeg-turbo https://github.com/libjpeg-turbo/libjpeg-turbo 2.1.5 jpeg-static libjpeg.a \
  -DENABLE_SHARED=0 -DWITH_SIMD=0 -DWITH_TURBOJPEG=0
build libpng https://github.com/pnggroup/libpng v1.6.39 png_static libpng16.a \
  -DPNG_SHARED=OFF -DPNG_TESTS=OFF -DPNG_HARDWARE_OPTIMIZATIONS=OFF
echo "$OUT/lib"
