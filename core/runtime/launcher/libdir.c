/*
 * libdir.c -- where compi's libraries are (libdir.h).
 */
#include "core/runtime/launcher/libdir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* dir, made real, into buf when it holds libmpi.so.12 */
static int try_dir(const char *dir, char *buf, size_t size)
{
    char probe[PATH_MAX + 32], real[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/libmpi.so.12", dir);
    if (access(probe, F_OK) != 0 || realpath(dir, real) == NULL) {
        return -1;
    }
    snprintf(buf, size, "%s", real);
    return 0;
}

int compi_lib_dir(char *buf, size_t size)
{
    char exe[PATH_MAX], dir[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            snprintf(dir, sizeof dir, "%s/../lib/.libs", exe);
            if (try_dir(dir, buf, size) == 0) {
                return 0;
            }
        }
    }
    snprintf(dir, sizeof dir, "%s", COMPI_PKGLIBDIR);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) {
        return -1;
    }
    *slash = '\0';
    return try_dir(dir, buf, size);
}
