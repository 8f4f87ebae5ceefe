#ifndef CTILESYNC_ZLIB_SHIM_H
#define CTILESYNC_ZLIB_SHIM_H
#include <zlib.h>
#endif
