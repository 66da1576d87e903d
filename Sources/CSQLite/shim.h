#ifndef TERMMAP_CSQLITE_SHIM_H
#define TERMMAP_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
