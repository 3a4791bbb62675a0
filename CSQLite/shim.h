#include <sqlite3.h>
#include <stddef.h>

/// glibc's memmem (two-way string matching, linear time), a GNU extension the Glibc module does not export; the
/// local instance's LIKE finds its literal runs with it.
extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);
