#ifndef CTILESYNC_WEBP_SHIM_H
#define CTILESYNC_WEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#endif
