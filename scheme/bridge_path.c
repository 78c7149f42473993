/*
 * bridge_path.c -- the entries of the config list (--coll-config, coll_config,
 * COMPI_COLL_CONFIG) as files: a path is a path, a bare name is one of the configs that
 * come with compi.
 *
 * An entry with a '/' or ending in ".scm" is a file, loaded as given.  Any other entry
 * ("hierarchical") names a config shipped with compi, NAME.scm in the configs directory:
 * $(pkgdatadir)/configs once installed, examples/configs of the source tree when the
 * library runs from the build tree (as the bridge takes its modules from there, see
 * bridge_init), the configs directory beside the modules when COMPI_SCHEME_DIR points
 * elsewhere.  A name found nowhere is a config error that says where it looked, the names
 * there, and the closest one.
 */
#include "compi_paths.h" /* made by make in the build tree */
#include "scheme/bridge.h"
#include "core/include/compi_common.h"
#include "core/runtime/params.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PATH_DIRS_MAX 3

static int path__is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int path__ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* the directories a config name is looked up in, in order; returns how many */
static int path__dirs(char dirs[][PATH_MAX])
{
    const char *src = bridge_source_dir();
    int n = 0;

    if (src != NULL && strncmp(src, COMPI_SRCDIR "/scheme", sizeof(COMPI_SRCDIR "/scheme") - 1)
        == 0) {
        /* the library runs from the build tree: the source tree's examples */
        snprintf(dirs[n++], PATH_MAX, "%s", COMPI_SRCDIR "/examples/configs");
    } else if (src != NULL && *src != '\0' &&
               strcmp(src, COMPI_PKGDATADIR "/scheme") != 0) {
        /* COMPI_SCHEME_DIR=DIR: an installed layout elsewhere, configs beside scheme/ */
        size_t l = strcspn(src, ":");
        while (l > 1 && src[l - 1] == '/') {
            l--;
        }
        const char *slash = memrchr(src, '/', l);
        if (slash != NULL && l < PATH_MAX - sizeof("/configs")) {
            snprintf(dirs[n++], PATH_MAX, "%.*s/configs", (int)(slash - src), src);
        }
    }
    snprintf(dirs[n++], PATH_MAX, "%s", COMPI_PKGDATADIR "/configs");
    return n;
}

static int path__by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "not found" for `name': where it looked, what is there, the closest name */
static void path__not_found(const char *name, char dirs[][PATH_MAX], int ndirs, char *errbuf,
                            size_t len)
{
    char *names[256];
    size_t nnames = 0;

    for (int i = 0; i < ndirs; i++) {
        DIR *d = opendir(dirs[i]);
        if (d == NULL) {
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL && nnames < COMPI_ARRAY_SIZE(names)) {
            size_t l = strlen(e->d_name);
            if (l <= 4 || !path__ends_with(e->d_name, ".scm") || e->d_name[0] == '.') {
                continue;
            }
            char *stem = strndup(e->d_name, l - 4);
            int dup = 0;
            for (size_t k = 0; stem != NULL && k < nnames; k++) {
                dup |= strcmp(names[k], stem) == 0;
            }
            if (stem == NULL || dup) {
                free(stem);
                continue;
            }
            names[nnames++] = stem;
        }
        closedir(d);
    }
    qsort(names, nnames, sizeof(names[0]), path__by_name);

    char where[2 * PATH_MAX] = "";
    size_t w = 0;
    for (int i = 0; i < ndirs && w < sizeof(where); i++) {
        w += (size_t)snprintf(where + w, sizeof(where) - w, "%s%s", i ? ", " : "", dirs[i]);
    }
    char avail[1024] = "";
    size_t a = 0;
    const char *near = NULL;
    size_t near_d = SIZE_MAX;
    for (size_t k = 0; k < nnames; k++) {
        if (a < sizeof(avail)) {
            a += (size_t)snprintf(avail + a, sizeof(avail) - a, "%s%s", k ? " " : "", names[k]);
        }
        size_t d = param_edit_distance(name, names[k]);
        if (d < near_d) {
            near_d = d;
            near = names[k];
        }
    }
    char hint[128] = "";
    if (near != NULL && near_d <= 3 && near_d < strlen(name)) {
        snprintf(hint, sizeof(hint), " (did you mean %s?)", near);
    }
    char yours[PATH_MAX + 64] = "";
    if (path__is_file(name)) {
        snprintf(yours, sizeof(yours), " (the file %s here: give it as ./%s)", name, name);
    }
    snprintf(errbuf, len,
             "config error: no config named %s%s: looked for %s.scm in %s; configs there: %s; "
             "a file of yours needs a '/' or the .scm suffix%s",
             name, hint, name, where, nnames > 0 ? avail : "none", yours);
    for (size_t k = 0; k < nnames; k++) {
        free(names[k]);
    }
}

compi_status_t bridge_config_resolve(const char *entry, char *path, size_t pathlen,
                                     char *errbuf, size_t len)
{
    if (strchr(entry, '/') != NULL || path__ends_with(entry, ".scm")) {
        snprintf(path, pathlen, "%s", entry);
        return COMPI_OK;
    }
    char dirs[PATH_DIRS_MAX][PATH_MAX];
    int ndirs = path__dirs(dirs);
    for (int i = 0; i < ndirs; i++) {
        int n = snprintf(path, pathlen, "%s/%s.scm", dirs[i], entry);
        if (n > 0 && (size_t)n < pathlen && path__is_file(path)) {
            return COMPI_OK;
        }
    }
    path__not_found(entry, dirs, ndirs, errbuf, len);
    return COMPI_ERR_CONFIG;
}

compi_status_t bridge_load_config_entry(const char *entry, char *errbuf, size_t len)
{
    char path[PATH_MAX + 64];
    compi_status_t st = bridge_config_resolve(entry, path, sizeof(path), errbuf, len);
    if (st != COMPI_OK) {
        return st;
    }
    return bridge_load_config(path, errbuf, len);
}
