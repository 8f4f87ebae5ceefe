#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CTileSyncFileShims.h"
#include <errno.h>

#if defined(__linux__)
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t page_mask;
static atomic_ulong guarded_faults;

static void on_bus_error(int number, siginfo_t *info, void *context) {
    (void)context;
    if (info->si_code == BUS_ADRERR && info->si_addr != NULL && page_mask != 0) {
        void *page = (void *)((uintptr_t)info->si_addr & ~page_mask);
        if (mmap(page, page_mask + 1, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            atomic_fetch_add(&guarded_faults, 1);
            return;
        }
    }
    struct sigaction fallback = {0};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    raise(number);
}

int ctilesync_guard_mapped_reads(void) {
    long size = sysconf(_SC_PAGESIZE);
    if (size <= 0) return -1;
    page_mask = (uintptr_t)size - 1;
    struct sigaction action = {0};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGBUS, &action, NULL);
}

unsigned long ctilesync_guarded_mapped_faults(void) {
    return atomic_load(&guarded_faults);
}
#else
int ctilesync_guard_mapped_reads(void) {
    errno = ENOSYS;
    return -1;
}

unsigned long ctilesync_guarded_mapped_faults(void) {
    return 0;
}
#endif
