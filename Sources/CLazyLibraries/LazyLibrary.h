#ifndef LAZY_LIBRARY_H
#define LAZY_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/// One library opened on first use: its file, what it is needed for, the package that installs it, and once
/// opened, its handle or why it could not be opened.
struct lazy_library {
    const char *name;
    const char *file;
    const char *purpose;
    const char *package;
    pthread_once_t once;
    void *handle;
    /// Empty once the library and every function are resolved.
    char problem[768];
};

/// Opens `library` (the caller's pthread_once routine calls this), leaving `problem` empty or explaining it.
void lazy_library_open(struct lazy_library *library);

/// `symbol` of the opened `library`, or NULL after writing which function is missing into `problem`.
void *lazy_library_symbol(struct lazy_library *library, const char *symbol);

/// Opens `library` on the first call, through `open` (its pthread_once routine, which calls lazy_library_open and
/// resolves the functions); NULL when its functions can be called, otherwise why not.
const char *lazy_library_problem(struct lazy_library *library, void (*open)(void));

/// Writes `library`'s problem to the standard error and ends the process with status 3 (a call reached a
/// library that cannot be loaded without asking first).
_Noreturn void lazy_library_fail(const struct lazy_library *library);

#endif
