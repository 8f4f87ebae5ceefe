#ifndef CTILESYNC_ZSTD_SHIM_H
#define CTILESYNC_ZSTD_SHIM_H
#include <zstd.h>
#endif
