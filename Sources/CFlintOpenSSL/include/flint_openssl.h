#ifndef FLINT_OPENSSL_H
#define FLINT_OPENSSL_H

#include <stddef.h>
#include <stdint.h>

/// Whether this build links the system's OpenSSL (1) or not (0: every function below fails).
int flint_openssl_available(void);

/// An RSA private key held by the system's OpenSSL (libcrypto), used only to sign.
typedef struct flint_rsa_key flint_rsa_key;

/// Parses a PEM (PKCS#1 or PKCS#8) RSA private key. Returns NULL on failure.
flint_rsa_key *flint_rsa_key_load(const char *pem, size_t pem_len);

/// RSASSA-PKCS1-v1_5 with SHA-256 over `msg`. `sig` must hold at least `flint_rsa_key_size(key)` bytes.
/// Returns the signature length, or 0 on failure. Safe to call from several threads at once.
size_t flint_rsa_sign_sha256(const flint_rsa_key *key, const uint8_t *msg, size_t msg_len, uint8_t *sig, size_t sig_cap);

/// The modulus size in bytes.
size_t flint_rsa_key_size(const flint_rsa_key *key);

/// Frees a key.
void flint_rsa_key_free(flint_rsa_key *key);

#endif
