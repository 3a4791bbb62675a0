// libcrypto's functions that NowData's SHA256 (digests), the local instance's password storage (PBKDF2), its
// TLS certificates (keys, X.509, PEM) and the JWT bearer grant (RS256 signatures, both sides) call, opening
// libcrypto.so.3 on first use (see CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(CLAZY_LOAD_ON_FIRST_USE)

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "LazyLibrary.h"

#define CRYPTO_FUNCTIONS(X) \
    X(EVP_DigestFinal_ex) X(EVP_DigestInit_ex) X(EVP_DigestUpdate) X(EVP_MD_CTX_copy_ex) X(EVP_MD_CTX_free) \
    X(EVP_MD_CTX_new) X(EVP_sha256) X(PKCS5_PBKDF2_HMAC) \
    X(EVP_DigestSign) X(EVP_DigestSignInit) X(EVP_DigestVerify) X(EVP_DigestVerifyInit) X(EVP_PKEY_get_base_id) \
    X(EVP_PKEY_get_bits) X(PEM_read_bio_PUBKEY) X(X509_get0_notBefore) X(X509_get_pubkey) \
    X(ASN1_INTEGER_free) X(BIO_ctrl_pending) X(BIO_free) X(BIO_new) X(BIO_new_mem_buf) X(BIO_read) X(BIO_s_mem) \
    X(BN_free) X(BN_new) X(BN_rand) X(BN_to_ASN1_INTEGER) X(EVP_PKEY_CTX_free) X(EVP_PKEY_CTX_new_from_name) \
    X(EVP_PKEY_CTX_set_group_name) X(EVP_PKEY_free) X(EVP_PKEY_generate) X(EVP_PKEY_keygen_init) \
    X(PEM_read_bio_PrivateKey) X(PEM_read_bio_X509) X(PEM_write_bio_PrivateKey) X(PEM_write_bio_X509) \
    X(X509V3_EXT_conf_nid) X(X509V3_set_ctx) X(X509_EXTENSION_free) X(X509_NAME_add_entry_by_txt) X(X509_add_ext) \
    X(X509_check_issued) X(X509_check_private_key) X(X509_cmp_time) X(X509_free) X(X509_get0_notAfter) \
    X(X509_get_subject_name) X(X509_getm_notAfter) X(X509_getm_notBefore) X(X509_gmtime_adj) X(X509_new) \
    X(X509_set_issuer_name) X(X509_set_pubkey) X(X509_set_serialNumber) X(X509_set_version) X(X509_sign)

#define CRYPTO_FIELD(function) __typeof__(function) *function;
static struct {
    CRYPTO_FUNCTIONS(CRYPTO_FIELD)
} real;

static struct lazy_library crypto = {
    .name = "libcrypto", .file = "libcrypto.so.3",
    .purpose = "SHA-256 hashes (attachments, passwords, sys_ids), TLS certificates and JWT signatures",
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

int EVP_DigestSign(
    EVP_MD_CTX *context, unsigned char *signature, size_t *signatureLength, const unsigned char *data, size_t length) {
    return functions()->EVP_DigestSign(context, signature, signatureLength, data, length);
}

int EVP_DigestSignInit(
    EVP_MD_CTX *context, EVP_PKEY_CTX **keyContext, const EVP_MD *type, ENGINE *engine, EVP_PKEY *key) {
    return functions()->EVP_DigestSignInit(context, keyContext, type, engine, key);
}

int EVP_DigestVerify(
    EVP_MD_CTX *context, const unsigned char *signature, size_t signatureLength, const unsigned char *data,
    size_t length) {
    return functions()->EVP_DigestVerify(context, signature, signatureLength, data, length);
}

int EVP_DigestVerifyInit(
    EVP_MD_CTX *context, EVP_PKEY_CTX **keyContext, const EVP_MD *type, ENGINE *engine, EVP_PKEY *key) {
    return functions()->EVP_DigestVerifyInit(context, keyContext, type, engine, key);
}

int EVP_PKEY_get_base_id(const EVP_PKEY *key) { return functions()->EVP_PKEY_get_base_id(key); }

int EVP_PKEY_get_bits(const EVP_PKEY *key) { return functions()->EVP_PKEY_get_bits(key); }

EVP_PKEY *PEM_read_bio_PUBKEY(BIO *bio, EVP_PKEY **key, pem_password_cb *callback, void *context) {
    return functions()->PEM_read_bio_PUBKEY(bio, key, callback, context);
}

const ASN1_TIME *X509_get0_notBefore(const X509 *certificate) {
    return functions()->X509_get0_notBefore(certificate);
}

EVP_PKEY *X509_get_pubkey(X509 *certificate) { return functions()->X509_get_pubkey(certificate); }

void ASN1_INTEGER_free(ASN1_INTEGER *integer) { functions()->ASN1_INTEGER_free(integer); }

size_t BIO_ctrl_pending(BIO *bio) { return functions()->BIO_ctrl_pending(bio); }

int BIO_free(BIO *bio) { return functions()->BIO_free(bio); }

BIO *BIO_new(const BIO_METHOD *type) { return functions()->BIO_new(type); }

BIO *BIO_new_mem_buf(const void *buffer, int length) { return functions()->BIO_new_mem_buf(buffer, length); }

int BIO_read(BIO *bio, void *data, int length) { return functions()->BIO_read(bio, data, length); }

const BIO_METHOD *BIO_s_mem(void) { return functions()->BIO_s_mem(); }

void BN_free(BIGNUM *number) { functions()->BN_free(number); }

BIGNUM *BN_new(void) { return functions()->BN_new(); }

int BN_rand(BIGNUM *number, int bits, int top, int bottom) { return functions()->BN_rand(number, bits, top, bottom); }

ASN1_INTEGER *BN_to_ASN1_INTEGER(const BIGNUM *number, ASN1_INTEGER *integer) {
    return functions()->BN_to_ASN1_INTEGER(number, integer);
}

void EVP_PKEY_CTX_free(EVP_PKEY_CTX *context) { functions()->EVP_PKEY_CTX_free(context); }

EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *library, const char *name, const char *properties) {
    return functions()->EVP_PKEY_CTX_new_from_name(library, name, properties);
}

int EVP_PKEY_CTX_set_group_name(EVP_PKEY_CTX *context, const char *name) {
    return functions()->EVP_PKEY_CTX_set_group_name(context, name);
}

void EVP_PKEY_free(EVP_PKEY *key) { functions()->EVP_PKEY_free(key); }

int EVP_PKEY_generate(EVP_PKEY_CTX *context, EVP_PKEY **key) { return functions()->EVP_PKEY_generate(context, key); }

int EVP_PKEY_keygen_init(EVP_PKEY_CTX *context) { return functions()->EVP_PKEY_keygen_init(context); }

EVP_PKEY *PEM_read_bio_PrivateKey(BIO *bio, EVP_PKEY **key, pem_password_cb *callback, void *context) {
    return functions()->PEM_read_bio_PrivateKey(bio, key, callback, context);
}

X509 *PEM_read_bio_X509(BIO *bio, X509 **certificate, pem_password_cb *callback, void *context) {
    return functions()->PEM_read_bio_X509(bio, certificate, callback, context);
}

int PEM_write_bio_PrivateKey(
    BIO *bio, const EVP_PKEY *key, const EVP_CIPHER *cipher, const unsigned char *passphrase, int length,
    pem_password_cb *callback, void *context) {
    return functions()->PEM_write_bio_PrivateKey(bio, key, cipher, passphrase, length, callback, context);
}

int PEM_write_bio_X509(BIO *bio, const X509 *certificate) { return functions()->PEM_write_bio_X509(bio, certificate); }

X509_EXTENSION *X509V3_EXT_conf_nid(
    LHASH_OF(CONF_VALUE) *configuration, X509V3_CTX *context, int nid, const char *value) {
    return functions()->X509V3_EXT_conf_nid(configuration, context, nid, value);
}

void X509V3_set_ctx(X509V3_CTX *context, X509 *issuer, X509 *subject, X509_REQ *request, X509_CRL *list, int flags) {
    functions()->X509V3_set_ctx(context, issuer, subject, request, list, flags);
}

void X509_EXTENSION_free(X509_EXTENSION *extension) { functions()->X509_EXTENSION_free(extension); }

int X509_NAME_add_entry_by_txt(
    X509_NAME *name, const char *field, int type, const unsigned char *bytes, int length, int location, int set) {
    return functions()->X509_NAME_add_entry_by_txt(name, field, type, bytes, length, location, set);
}

int X509_add_ext(X509 *certificate, X509_EXTENSION *extension, int location) {
    return functions()->X509_add_ext(certificate, extension, location);
}

int X509_check_issued(X509 *issuer, X509 *subject) { return functions()->X509_check_issued(issuer, subject); }

int X509_check_private_key(const X509 *certificate, const EVP_PKEY *key) {
    return functions()->X509_check_private_key(certificate, key);
}

int X509_cmp_time(const ASN1_TIME *time, time_t *reference) { return functions()->X509_cmp_time(time, reference); }

void X509_free(X509 *certificate) { functions()->X509_free(certificate); }

const ASN1_TIME *X509_get0_notAfter(const X509 *certificate) { return functions()->X509_get0_notAfter(certificate); }

X509_NAME *X509_get_subject_name(const X509 *certificate) { return functions()->X509_get_subject_name(certificate); }

ASN1_TIME *X509_getm_notAfter(const X509 *certificate) { return functions()->X509_getm_notAfter(certificate); }

ASN1_TIME *X509_getm_notBefore(const X509 *certificate) { return functions()->X509_getm_notBefore(certificate); }

ASN1_TIME *X509_gmtime_adj(ASN1_TIME *time, long seconds) { return functions()->X509_gmtime_adj(time, seconds); }

X509 *X509_new(void) { return functions()->X509_new(); }

int X509_set_issuer_name(X509 *certificate, const X509_NAME *name) {
    return functions()->X509_set_issuer_name(certificate, name);
}

int X509_set_pubkey(X509 *certificate, EVP_PKEY *key) { return functions()->X509_set_pubkey(certificate, key); }

int X509_set_serialNumber(X509 *certificate, ASN1_INTEGER *serial) {
    return functions()->X509_set_serialNumber(certificate, serial);
}

int X509_set_version(X509 *certificate, long version) { return functions()->X509_set_version(certificate, version); }

int X509_sign(X509 *certificate, EVP_PKEY *key, const EVP_MD *digest) {
    return functions()->X509_sign(certificate, key, digest);
}

#endif
