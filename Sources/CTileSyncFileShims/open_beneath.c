#include "CTileSyncFileShims.h"
#include <errno.h>
#include <fcntl.h>

#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

int ctilesync_open_beneath(int folder, const char *path) {
#ifdef SYS_openat2
    struct open_how how = {0};
    how.flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long descriptor;
    do {
        descriptor = syscall(SYS_openat2, folder, path, &how, sizeof how);
    } while (descriptor < 0 && errno == EINTR);
    return (int)descriptor;
#else
    (void)folder; (void)path;
    errno = ENOSYS;
    return -1;
#endif
}
#else
int ctilesync_open_beneath(int folder, const char *path) {
    (void)folder; (void)path;
    errno = ENOSYS;
    return -1;
}
#endif
