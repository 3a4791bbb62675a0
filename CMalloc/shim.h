// glibc's allocator options (mallopt), for `nowflow validate` (Sources/nowflow/ValidateCommand.swift); the Glibc
// module does not include malloc.h. Part of the C library: nothing to link.
#if defined(__linux__)
#include <malloc.h>
#endif
