/*
 * fuzz.h — what the fuzz targets share. Each fuzz_<target>.c defines the
 * libFuzzer entry point; built with clang -fsanitize=fuzzer it is a
 * fuzzer (`make fuzz`), built with the normal compiler and replay.c it
 * replays the seed corpus and the regression inputs (`make test`).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file holding exactly data: /proc/self/fd/N of a memfd, rewritten on
 * every call (the parsers under test read paths). Borrowed string. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* Print what broke, then abort() so the fuzzer records the input. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
