/* test_dynlib.c - a library opened at run time (engine/cli/dynlib.c), as
 * `tiers serve` opens libmicrohttpd: found, missing, or without one of the
 * functions asked for, with the library and the package named. */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "dynlib.h"

static void found(void **state)
{
    (void)state;
    double (*fn)(double) = NULL;
    const char *const files[] = {"libm.so.6", NULL};
    const dynlib_sym syms[] = {{"cos", (void **)&fn}};
    char err[512] = "";
    assert_int_equal(dynlib_load(files, "libc6", syms, 1, err, sizeof err), 0);
    assert_non_null(fn);
    assert_true(fabs(fn(0.0) - 1.0) < 1e-12);
}

/* The first file that loads is taken. */
static void second_file(void **state)
{
    (void)state;
    double (*fn)(double) = NULL;
    const char *const files[] = {"libtiers-none.so.9", "libm.so.6", NULL};
    const dynlib_sym syms[] = {{"sqrt", (void **)&fn}};
    char err[512] = "";
    assert_int_equal(dynlib_load(files, "libc6", syms, 1, err, sizeof err), 0);
    assert_true(fabs(fn(9.0) - 3.0) < 1e-12);
}

static void missing_library(void **state)
{
    (void)state;
    void *fn = NULL;
    const char *const files[] = {"libtiers-none.so.9", NULL};
    const dynlib_sym syms[] = {{"f", &fn}};
    char err[512] = "";
    assert_int_equal(dynlib_load(files, "tiers-none", syms, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot load libtiers-none.so.9"));
    assert_non_null(strstr(err, "install the Debian package tiers-none"));
    assert_null(fn);
}

static void missing_symbol(void **state)
{
    (void)state;
    void *a = NULL, *b = NULL;
    const char *const files[] = {"libm.so.6", NULL};
    const dynlib_sym syms[] = {{"cos", &a}, {"tiers_no_such_function", &b}};
    char err[512] = "";
    assert_int_equal(dynlib_load(files, "libc6", syms, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "libm.so.6 has no tiers_no_such_function"));
    assert_null(a); /* nothing half-filled */
    assert_null(b);
}

/* The message names the file that opened, not the first one tried. */
static void missing_symbol_second_file(void **state)
{
    (void)state;
    void *a = NULL;
    const char *const files[] = {"libtiers-none.so.9", "libm.so.6", NULL};
    const dynlib_sym syms[] = {{"tiers_no_such_function", &a}};
    char err[512] = "";
    assert_int_equal(dynlib_load(files, "libc6", syms, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "libm.so.6 has no tiers_no_such_function"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(found),
        cmocka_unit_test(second_file),
        cmocka_unit_test(missing_library),
        cmocka_unit_test(missing_symbol),
        cmocka_unit_test(missing_symbol_second_file),
    };
    return tu_run_tests(tests, NULL, NULL);
}
