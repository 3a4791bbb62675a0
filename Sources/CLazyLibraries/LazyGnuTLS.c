// GnuTLS's functions that LocalInstance's HTTPListener calls to read a client's certificate, opening
// libgnutls.so.30 on first use (see CLazyLibraries.h). libmicrohttpd, which the listener has opened by then, links
// it: the dynamic loader hands back the copy already mapped.
#include "CLazyLibraries.h"

#if defined(CLAZY_LOAD_ON_FIRST_USE)

#include <gnutls/gnutls.h>

#include "LazyLibrary.h"

#define GNUTLS_FUNCTIONS(X) X(gnutls_certificate_get_peers) X(gnutls_certificate_verify_peers2)

#define GNUTLS_FIELD(function) __typeof__(function) *function;
static struct {
    GNUTLS_FUNCTIONS(GNUTLS_FIELD)
} real;

static struct lazy_library gnutls = {
    .name = "GnuTLS", .file = "libgnutls.so.30", .purpose = "client certificates (`nowflow serve --tls-client-ca`)",
    .package = "libgnutls30", .once = PTHREAD_ONCE_INIT,
};

static void open_gnutls(void) {
    lazy_library_open(&gnutls);
    if (gnutls.problem[0] != '\0') return;
#define GNUTLS_RESOLVE(function) real.function = (__typeof__(function) *)lazy_library_symbol(&gnutls, #function);
    GNUTLS_FUNCTIONS(GNUTLS_RESOLVE)
}

const char *clazy_gnutls_problem(void) { return lazy_library_problem(&gnutls, open_gnutls); }

/// GnuTLS's functions, opening it first if need be.
static inline __typeof__(real) *functions(void) {
    if (clazy_gnutls_problem() != NULL) lazy_library_fail(&gnutls);
    return &real;
}

const gnutls_datum_t *gnutls_certificate_get_peers(gnutls_session_t session, unsigned int *count) {
    return functions()->gnutls_certificate_get_peers(session, count);
}

int gnutls_certificate_verify_peers2(gnutls_session_t session, unsigned int *status) {
    return functions()->gnutls_certificate_verify_peers2(session, status);
}

#else

const char *clazy_gnutls_problem(void) { return 0; }

#endif
