// libcrypto's digest and PBKDF2 functions that NowData's SHA256 calls, opening libcrypto.so.3 on first use (see
// CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(CLAZY_LOAD_ON_FIRST_USE)

#include <openssl/evp.h>

#include "LazyLibrary.h"

#define CRYPTO_FUNCTIONS(X) \
    X(EVP_DigestFinal_ex) X(EVP_DigestInit_ex) X(EVP_DigestUpdate) X(EVP_MD_CTX_copy_ex) X(EVP_MD_CTX_free) \
    X(EVP_MD_CTX_new) X(EVP_sha256) X(PKCS5_PBKDF2_HMAC)

#define CRYPTO_FIELD(function) __typeof__(function) *function;
static struct {
    CRYPTO_FUNCTIONS(CRYPTO_FIELD)
} real;

static struct lazy_library crypto = {
    .name = "libcrypto", .file = "libcrypto.so.3", .purpose = "SHA-256 hashes (attachments, passwords, sys_ids)",
    .package = "libssl3", .once = PTHREAD_ONCE_INIT,
};

static void open_crypto(void) {
    lazy_library_open(&crypto);
    if (crypto.problem[0] != '\0') return;
#define CRYPTO_RESOLVE(function) real.function = (__typeof__(function) *)lazy_library_symbol(&crypto, #function);
    CRYPTO_FUNCTIONS(CRYPTO_RESOLVE)
}

/// libcrypto's functions, opening it first if need be. Hashing has no error to report, so a libcrypto that cannot
/// be loaded ends the process with its sentence.
static inline __typeof__(real) *functions(void) {
    if (lazy_library_problem(&crypto, open_crypto) != NULL) lazy_library_fail(&crypto);
    return &real;
}

int EVP_DigestFinal_ex(EVP_MD_CTX *context, unsigned char *digest, unsigned int *size) {
    return functions()->EVP_DigestFinal_ex(context, digest, size);
}

int EVP_DigestInit_ex(EVP_MD_CTX *context, const EVP_MD *type, ENGINE *engine) {
    return functions()->EVP_DigestInit_ex(context, type, engine);
}

int EVP_DigestUpdate(EVP_MD_CTX *context, const void *data, size_t count) {
    return functions()->EVP_DigestUpdate(context, data, count);
}

int EVP_MD_CTX_copy_ex(EVP_MD_CTX *out, const EVP_MD_CTX *in) { return functions()->EVP_MD_CTX_copy_ex(out, in); }

void EVP_MD_CTX_free(EVP_MD_CTX *context) { functions()->EVP_MD_CTX_free(context); }

EVP_MD_CTX *EVP_MD_CTX_new(void) { return functions()->EVP_MD_CTX_new(); }

const EVP_MD *EVP_sha256(void) { return functions()->EVP_sha256(); }

int PKCS5_PBKDF2_HMAC(
    const char *password, int passwordLength, const unsigned char *salt, int saltLength, int iterations,
    const EVP_MD *digest, int keyLength, unsigned char *out) {
    return functions()->PKCS5_PBKDF2_HMAC(
        password, passwordLength, salt, saltLength, iterations, digest, keyLength, out);
}

#endif
