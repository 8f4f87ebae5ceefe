#ifndef CTILESYNC_FILE_SHIMS_H
#define CTILESYNC_FILE_SHIMS_H

/* Opens the regular file at `path` (relative, several components) below the open folder
 * `folder` for reading in one call: Linux's openat2 with RESOLVE_BENEATH and
 * RESOLVE_NO_SYMLINKS, so no component may leave the folder or be a symbolic link, as a chain
 * of openat calls with O_NOFOLLOW would ensure. Returns the descriptor, or -1 with errno
 * (ENOSYS where the kernel or the C library lacks openat2). */
int ctilesync_open_beneath(int folder, const char *path);

/* Installs a SIGBUS handler for reads through memory maps of files that another program
 * truncates meanwhile (SQLite's mmap of a store copied over in place): a read past the file's
 * new end (BUS_ADRERR) gets a page of zeros mapped in its place and goes on, so SQLite sees a
 * damaged page and reports an error instead of the process dying. Any other SIGBUS keeps its
 * default action. Returns 0, or -1 with errno. */
int ctilesync_guard_mapped_reads(void);

/* How many reads the guard has let go on past the end of a truncated file. */
unsigned long ctilesync_guarded_mapped_faults(void);

#endif
