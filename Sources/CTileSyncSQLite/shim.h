#ifndef CTILESYNC_SQLITE_SHIM_H
#define CTILESYNC_SQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type ctilesync_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
/// SQLITE_STATIC: the bound bytes stay valid until the statement is reset or rebound.
static inline sqlite3_destructor_type ctilesync_sqlite_static(void) {
    return SQLITE_STATIC;
}
/// sqlite3_config is variadic, which Swift cannot call: turns SQLite's memory statistics off
/// for the process (SQLITE_CONFIG_MEMSTATUS). SQLITE_MISUSE once SQLite was initialized.
static inline int ctilesync_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
