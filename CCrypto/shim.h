// OpenSSL's libcrypto: the EVP digest interface for NowData's SHA256 (attachment hashes at the speed of the CPU's
// SHA instructions), PBKDF2-HMAC (stored passwords), and the key, X.509 and PEM functions with which the local
// instance makes and reads its TLS certificates.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
