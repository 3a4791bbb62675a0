#define _GNU_SOURCE
#include "LazyLibrary.h"

#if defined(CLAZY_LOAD_ON_FIRST_USE)

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

void lazy_library_open(struct lazy_library *library) {
    library->handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) {
        const char *reason = dlerror();
        snprintf(
            library->problem, sizeof library->problem,
            "%s (%s), which %s need, cannot be loaded: %s; install it (Debian and Ubuntu: apt-get install %s)",
            library->name, library->file, library->purpose, reason ? reason : "dlopen failed", library->package);
    }
}

void *lazy_library_symbol(struct lazy_library *library, const char *symbol) {
    void *address = dlsym(library->handle, symbol);
    if (address == NULL && library->problem[0] == '\0') {
        snprintf(
            library->problem, sizeof library->problem,
            "%s (%s), which %s need, has no function %s: it is older than this build needs; install a newer "
            "one (Debian and Ubuntu: apt-get install %s)",
            library->name, library->file, library->purpose, symbol, library->package);
    }
    return address;
}

const char *lazy_library_problem(struct lazy_library *library, void (*open)(void)) {
    pthread_once(&library->once, open);
    return library->problem[0] == '\0' ? NULL : library->problem;
}

_Noreturn void lazy_library_fail(const struct lazy_library *library) {
    fprintf(stderr, "%s: %s\n", program_invocation_short_name, library->problem);
    _exit(3);
}

#endif
