#ifndef CTILESYNC_ARCHIVE_SHIM_H
#define CTILESYNC_ARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>

/// File type constants are octal macros with casts that Swift cannot import.
static const unsigned int ctilesync_ae_ifreg = AE_IFREG;
static const unsigned int ctilesync_ae_ifdir = AE_IFDIR;
static const unsigned int ctilesync_ae_iflnk = AE_IFLNK;
#endif
