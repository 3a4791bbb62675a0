// libcurl's functions that CurlHTTP and FoundationNetworking's URLSession call, each opening libcurl.so.4 on
// first use (see CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(CLAZY_LOAD_ON_FIRST_USE)

#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <stdarg.h>

#include "LazyLibrary.h"

#define CURL_FUNCTIONS(X) \
    X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_pause) X(curl_easy_setopt) \
    X(curl_easy_strerror) X(curl_free) X(curl_global_init) X(curl_multi_add_handle) X(curl_multi_assign) \
    X(curl_multi_cleanup) X(curl_multi_info_read) X(curl_multi_init) X(curl_multi_perform) X(curl_multi_poll) \
    X(curl_multi_remove_handle) X(curl_multi_setopt) X(curl_multi_socket_action) X(curl_multi_wakeup) \
    X(curl_slist_append) X(curl_slist_free_all) X(curl_url) X(curl_url_get) X(curl_url_set) X(curl_version) \
    X(curl_version_info)

#define CURL_FIELD(function) __typeof__(function) *function;
static struct {
    CURL_FUNCTIONS(CURL_FIELD)
} real;

static struct lazy_library curl = {
    .name = "libcurl", .file = "libcurl.so.4", .purpose = "HTTP(S) requests", .package = "libcurl4",
    .once = PTHREAD_ONCE_INIT,
};

static void open_curl(void) {
    lazy_library_open(&curl);
    if (curl.problem[0] != '\0') return;
#define CURL_RESOLVE(function) real.function = (__typeof__(function) *)lazy_library_symbol(&curl, #function);
    CURL_FUNCTIONS(CURL_RESOLVE)
}

const char *clazy_curl_problem(void) { return lazy_library_problem(&curl, open_curl); }

// Calls `function` (an easy or a multi setopt) with `option` and its one variadic argument, read by the type that
// the option's number tells, as libcurl itself reads it: long, curl_off_t, or a pointer (objects, functions and
// blobs). Only the chosen branch reads the argument.
#define CALL_WITH_OPTION(function, handle, option, arguments)                                               \
    ((option) < CURLOPTTYPE_OBJECTPOINT ? (function)(handle, option, va_arg(arguments, long))                \
     : ((option) >= CURLOPTTYPE_OFF_T && (option) < CURLOPTTYPE_BLOB)                                        \
         ? (function)(handle, option, va_arg(arguments, curl_off_t))                                         \
         : (function)(handle, option, va_arg(arguments, void *)))

/// libcurl's functions, opening it first if need be.
static inline __typeof__(real) *functions(void) {
    if (clazy_curl_problem() != NULL) lazy_library_fail(&curl);
    return &real;
}

void curl_easy_cleanup(CURL *handle) { functions()->curl_easy_cleanup(handle); }

CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    // Every CURLINFO's argument is a pointer to where the value goes.
    va_list arguments;
    va_start(arguments, info);
    void *value = va_arg(arguments, void *);
    va_end(arguments);
    return functions()->curl_easy_getinfo(handle, info, value);
}

CURL *curl_easy_init(void) { return functions()->curl_easy_init(); }

CURLcode curl_easy_pause(CURL *handle, int bitmask) { return functions()->curl_easy_pause(handle, bitmask); }

CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    CURLcode code = CALL_WITH_OPTION(functions()->curl_easy_setopt, handle, option, arguments);
    va_end(arguments);
    return code;
}

const char *curl_easy_strerror(CURLcode code) { return functions()->curl_easy_strerror(code); }

void curl_free(void *pointer) { functions()->curl_free(pointer); }

CURLcode curl_global_init(long flags) { return functions()->curl_global_init(flags); }

CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return functions()->curl_multi_add_handle(multi, handle);
}

CURLMcode curl_multi_assign(CURLM *multi, curl_socket_t socket, void *context) {
    return functions()->curl_multi_assign(multi, socket, context);
}

CURLMcode curl_multi_cleanup(CURLM *multi) { return functions()->curl_multi_cleanup(multi); }

CURLMsg *curl_multi_info_read(CURLM *multi, int *queued) { return functions()->curl_multi_info_read(multi, queued); }

CURLM *curl_multi_init(void) { return functions()->curl_multi_init(); }

CURLMcode curl_multi_perform(CURLM *multi, int *running) { return functions()->curl_multi_perform(multi, running); }

CURLMcode curl_multi_poll(
    CURLM *multi, struct curl_waitfd extra[], unsigned int extraCount, int timeout, int *ready) {
    return functions()->curl_multi_poll(multi, extra, extraCount, timeout, ready);
}

CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return functions()->curl_multi_remove_handle(multi, handle);
}

CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    CURLMcode code = CALL_WITH_OPTION(functions()->curl_multi_setopt, multi, option, arguments);
    va_end(arguments);
    return code;
}

CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return functions()->curl_multi_socket_action(multi, socket, events, running);
}

CURLMcode curl_multi_wakeup(CURLM *multi) { return functions()->curl_multi_wakeup(multi); }

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return functions()->curl_slist_append(list, text);
}

void curl_slist_free_all(struct curl_slist *list) { functions()->curl_slist_free_all(list); }

CURLU *curl_url(void) { return functions()->curl_url(); }

CURLUcode curl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags) {
    return functions()->curl_url_get(url, part, text, flags);
}

CURLUcode curl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) {
    return functions()->curl_url_set(url, part, text, flags);
}

char *curl_version(void) { return functions()->curl_version(); }

curl_version_info_data *curl_version_info(CURLversion version) { return functions()->curl_version_info(version); }

#else

const char *clazy_curl_problem(void) { return 0; }

#endif
