#ifndef CTILESYNC_FILE_SHIMS_H
#define CTILESYNC_FILE_SHIMS_H

/* Opens the regular file at `path` (relative, several components) below the open folder
 * `folder` for reading in one call: Linux's openat2 with RESOLVE_BENEATH and
 * RESOLVE_NO_SYMLINKS, so no component may leave the folder or be a symbolic link, as a chain
 * of openat calls with O_NOFOLLOW would ensure. Returns the descriptor, or -1 with errno
 * (ENOSYS where the kernel or the C library lacks openat2). */
int ctilesync_open_beneath(int folder, const char *path);

#endif
