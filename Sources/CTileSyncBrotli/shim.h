#ifndef CTILESYNC_BROTLI_SHIM_H
#define CTILESYNC_BROTLI_SHIM_H
#include <brotli/decode.h>
#include <brotli/encode.h>
#endif
