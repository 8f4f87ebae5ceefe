#ifndef CTILESYNC_CRYPTO_SHIM_H
#define CTILESYNC_CRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
