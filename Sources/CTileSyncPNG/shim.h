#ifndef CTILESYNC_PNG_SHIM_H
#define CTILESYNC_PNG_SHIM_H
#include <png.h>
#endif
