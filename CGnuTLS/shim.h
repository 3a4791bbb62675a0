// GnuTLS, the TLS library under libmicrohttpd: the local instance reads and verifies a client's certificate from
// the TLS session libmicrohttpd hands it (see CLazyLibraries for how it is loaded).
#include <gnutls/gnutls.h>
