/* test_rules.c - every scenario file of every variant: each folder
 * tests/rules/<variant>/ is one test, running its *.scen files in name
 * order through the shared runner (scenario.c).  blog's scenario files
 * (*.txt) run in test_blog beside its movement table, perft and soak. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

enum { MAX_FOLDERS = 64, MAX_FILES = 256 };

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in tests/<rel> ending in suffix (any, for ""), sorted, that
 * are folders (dirs) or not; the count. */
static int list(const char *rel, const char *suffix, int dirs, char **out, int max)
{
    DIR *d = opendir(tu_path(rel));
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < max;) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (e->d_name[0] == '.' || len < sl || strcmp(e->d_name + len - sl, suffix))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", rel, e->d_name);
        DIR *sub = opendir(tu_path(path));
        if (sub)
            closedir(sub);
        if ((sub != NULL) == dirs)
            out[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, by_name);
    return n;
}

/* One variant's folder (the state): every *.scen file in it. */
static void test_folder(void **state)
{
    const char *folder = *state;
    char rel[512], *files[MAX_FILES];
    snprintf(rel, sizeof rel, "rules/%s", folder);
    int n = list(rel, ".scen", 0, files, MAX_FILES), scenarios = 0, checks = 0;
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", rel, files[i]);
        int k = scen_run(path, &checks);
        if (k < 1)
            fail_msg("%s: no scenario", path);
        scenarios += k;
    }
    printf("%s: %d files, %d scenarios, %d checks\n", folder, n, scenarios, checks);
    free_names(files, n);
}

int main(void)
{
    char *folders[MAX_FOLDERS], *files[MAX_FILES];
    struct CMUnitTest tests[MAX_FOLDERS];
    int nf = list("rules", "", 1, folders, MAX_FOLDERS), n = 0;
    for (int i = 0; i < nf; i++) {
        char rel[512];
        snprintf(rel, sizeof rel, "rules/%s", folders[i]);
        int k = list(rel, ".scen", 0, files, MAX_FILES);
        free_names(files, k);
        if (k == 0)
            continue;
        tests[n] = (struct CMUnitTest){folders[i], test_folder, NULL, NULL, folders[i]};
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "test_rules: no tests/rules/*/*.scen file\n");
        return 1;
    }
    int rc = tu_run_group("rules", tests, (size_t)n, NULL, scen_teardown);
    free_names(folders, nf);
    return rc;
}
