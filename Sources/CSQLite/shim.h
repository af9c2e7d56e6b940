#include <sqlite3.h>

/// `SQLITE_TRANSIENT` (a destructor of -1: SQLite copies the bound bytes before the bind call returns), which Swift
/// cannot import because it is a cast macro.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
