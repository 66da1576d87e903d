#!/usr/bin/env bash
# Build termmap's fuzzing targets with libFuzzer and AddressSanitizer, and run each over its
# seed corpus. Usage: bash Fuzz/run.sh [RUNS] [TARGET...]   (default: 1000000 runs, all targets)
# Findings (crash-*, timeout-*, oom-*) are written to Fuzz/findings/TARGET/; the grown corpus to a
# scratch folder, so the committed seeds stay small. Development time only; CI does not run it.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${1:-1000000}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(FuzzGPX FuzzKML FuzzGeoJSON FuzzCSV FuzzMVT FuzzMBTiles FuzzPMTiles FuzzTileJSON FuzzConfig FuzzTCX FuzzFIT FuzzIGC FuzzNMEA FuzzGPSD FuzzJPEG FuzzPNG FuzzHTTP FuzzStyleExpression FuzzLiveLayers)
# TERMMAP_FUZZ_LIBS: a folder of instrumented static libjpeg.a and libpng16.a (build-c-libs.sh),
# linked instead of the system's, in a build folder of its own.
SCRATCH=.build-fuzz
LINK=()
if [ -n "${TERMMAP_FUZZ_LIBS:-}" ]; then
  SCRATCH=.build-fuzz-clibs
  LINK=(-Xlinker -L"$TERMMAP_FUZZ_LIBS")
fi
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld "${LINK[@]}" \
  --scratch-path "$SCRATCH"
WORK=${TERMMAP_FUZZ_WORK:-/tmp/termmap-fuzz}
for t in "${TARGETS[@]}"; do
  mkdir -p "findings/$t" "$WORK/$t"
  echo "== $t ($RUNS runs)"
  ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$SCRATCH/release/$t" "$WORK/$t" "Corpus/$t" \
    -runs="$RUNS" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="findings/$t/" 2>&1 | grep -E "^(#[0-9]+[[:space:]]+DONE|stat::|==[0-9]+==ERROR|SUMMARY|Done)" || true
done
