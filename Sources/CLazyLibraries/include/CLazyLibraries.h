#ifndef CLAZY_LIBRARIES_H
#define CLAZY_LIBRARIES_H

// libcurl, libmicrohttpd and libcrypto (and GnuTLS, which libmicrohttpd links), loaded when first used instead of at every start (Linux release builds).
//
// Between them they bring 31 shared libraries (GnuTLS, Kerberos, LDAP, nettle, OpenSSL...) which the dynamic
// loader would map and bind before main at every start of nowflow, for commands that need none of them (an
// offline `validate`). In a Linux release build this target defines the libraries' functions that the package and
// FoundationNetworking call: the first call opens the library with dlopen and each call goes through the function
// it resolved there, so none of the three is linked. Debug builds (and so the tests) and other platforms link them
// as usual, and the functions below answer NULL.
//
// A caller that can report an error asks first (CurlEngine, HTTPListener) and reports the sentence as its own. A
// call that reaches a library that cannot be loaded without asking (FoundationNetworking's URLSession, NowData's
// SHA256, which has no error to report) writes the same sentence to the standard error and ends the process with
// status 3: there is no value such a call could return.

/// NULL when libcurl's functions can be called; otherwise why libcurl (libcurl.so.4) cannot be loaded, in a
/// sentence that names the library and the reason (the same text at every call).
const char *clazy_curl_problem(void);

/// NULL when libmicrohttpd's functions can be called; otherwise why libmicrohttpd (libmicrohttpd.so.12) cannot
/// be loaded, in a sentence that names the library and the reason (the same text at every call).
const char *clazy_microhttpd_problem(void);

/// NULL when GnuTLS's functions can be called; otherwise why GnuTLS (libgnutls.so.30) cannot be loaded, in a
/// sentence that names the library and the reason (the same text at every call).
const char *clazy_gnutls_problem(void);

#endif
