/* dynlib.h - a shared library opened when the one command that needs it
 * runs (dlopen), so that every other command starts without loading it
 * and what it pulls in: libmicrohttpd brings GnuTLS and nine libraries
 * more, about 5 million instructions of the dynamic linker at each start.
 * The library's header still gives the types and constants at build
 * time. */
#ifndef TIERS_CLI_DYNLIB_H
#define TIERS_CLI_DYNLIB_H

#include <stddef.h>

/* One function to find: its name and where to put its address. */
typedef struct dynlib_sym {
    const char *name;
    void **slot;
} dynlib_sym;

/* Opens the first file of files (NULL-ended sonames) that loads, and
 * fills the slot of each of the nsyms symbols.  0, or -1 with a one-line
 * reason in err naming the library and the Debian package that has it.
 * The library stays open for the process's life. */
int dynlib_load(const char *const *files, const char *package, const dynlib_sym *syms,
                int nsyms, char *err, size_t errlen);

#endif
