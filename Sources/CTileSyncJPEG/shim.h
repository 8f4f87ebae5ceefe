#ifndef CTILESYNC_JPEG_SHIM_H
#define CTILESYNC_JPEG_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#endif
