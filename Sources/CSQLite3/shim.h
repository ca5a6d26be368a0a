#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*flint_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call. Turns off SQLite's memory statistics: with them on (the
// default), every allocation and free inside SQLite takes one process-wide mutex, which the writer and every reader
// thread contend on. Flint reads none of those statistics. Returns SQLITE_MISUSE once SQLite is initialized.
static inline int flint_sqlite_disable_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
