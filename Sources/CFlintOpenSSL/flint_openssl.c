// RS256 signing through the system's libcrypto. On x86-64 CPUs with AVX-512 IFMA, OpenSSL 3's RSA is about twice as
// fast as BoringSSL's (reference/swift-stack.md §4), and signing is the cost floor of every sign-in and refresh.
#include "flint_openssl.h"

#if defined(__linux__) && __has_include(<openssl/evp.h>)
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdlib.h>

struct flint_rsa_key {
    EVP_PKEY *pkey;
};

int flint_openssl_available(void) { return 1; }

flint_rsa_key *flint_rsa_key_load(const char *pem, size_t pem_len) {
    BIO *bio = BIO_new_mem_buf(pem, (int)pem_len);
    if (bio == NULL) return NULL;
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (pkey == NULL) return NULL;
    if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_RSA) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    flint_rsa_key *key = malloc(sizeof(flint_rsa_key));
    if (key == NULL) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    key->pkey = pkey;
    return key;
}

size_t flint_rsa_sign_sha256(const flint_rsa_key *key, const uint8_t *msg, size_t msg_len, uint8_t *sig, size_t sig_cap) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return 0;
    size_t len = sig_cap;
    int ok = EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key->pkey) == 1
        && EVP_DigestSign(ctx, sig, &len, msg, msg_len) == 1;
    EVP_MD_CTX_free(ctx);
    return ok ? len : 0;
}

size_t flint_rsa_key_size(const flint_rsa_key *key) { return (size_t)EVP_PKEY_get_size(key->pkey); }

void flint_rsa_key_free(flint_rsa_key *key) {
    if (key == NULL) return;
    EVP_PKEY_free(key->pkey);
    free(key);
}

#else

int flint_openssl_available(void) { return 0; }
flint_rsa_key *flint_rsa_key_load(const char *pem, size_t pem_len) { (void)pem; (void)pem_len; return NULL; }
size_t flint_rsa_sign_sha256(const flint_rsa_key *key, const uint8_t *msg, size_t msg_len, uint8_t *sig, size_t sig_cap) {
    (void)key; (void)msg; (void)msg_len; (void)sig; (void)sig_cap; return 0;
}
size_t flint_rsa_key_size(const flint_rsa_key *key) { (void)key; return 0; }
void flint_rsa_key_free(flint_rsa_key *key) { (void)key; }

#endif
