// OpenSSL's libcrypto for NowData's SHA256 (attachment hashes at the speed of the CPU's SHA instructions): the
// EVP digest interface and PBKDF2-HMAC (stored passwords).
#include <openssl/evp.h>
