#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver on the process's arguments with `test` as the target (LLVMFuzzerRunDriver): a fuzz
/// target's main. SwiftPM gives an executable's `main` to the module's own entry point, so libFuzzer's `main`
/// cannot be the program's; this is what libFuzzer's `main` would do.
int fuzzer_driver_main(int argc, char **argv, int (*test)(const uint8_t *data, size_t size));

#endif
