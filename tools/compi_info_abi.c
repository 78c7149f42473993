/*
 * compi_info_abi.c -- compi_info --abi [PROGRAM]: the ABIs this compi offers (its native
 * one, MPICH's, as libmpi.so.12 and libmpich.so.12; the MPI-5 standard ABI as
 * libmpi_abi.so.1) and, for a program, which MPI library it asks for (its NEEDED
 * entries), where its RUNPATH or RPATH points, and which file it loads under compi's
 * mpirun, which puts compi's library folder first in LD_LIBRARY_PATH.  readelf -d and
 * ldd do the reading.
 */
#include "tools/compi_info_abi.h"
#include "core/runtime/launcher/libdir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* the MPI libraries a program may ask for, and which ABI each one is */
static const struct {
    const char *soname;
    const char *abi;
    int compi; /* compi has it */
} mpi_libs[] = {
    {"libmpi.so.12", "MPICH's ABI (compi's native one)", 1},
    {"libmpich.so.12", "MPICH's ABI (compi's native one)", 1},
    {"libmpi_abi.so.1", "the MPI-5 standard ABI", 1},
    {"libmpi.so.40", "Open MPI's ABI", 0},
    {"libmpifort.so.12", "MPICH's Fortran bindings", 1},
};
#define N_MPI_LIBS (sizeof mpi_libs / sizeof mpi_libs[0])

/* the output of a command (argv), NUL-terminated and malloc'd; NULL when it cannot run.
   ld_path, when not NULL, is its LD_LIBRARY_PATH. */
static char *capture(char *const argv[], const char *ld_path)
{
    int fd[2];
    if (pipe(fd) != 0) {
        return NULL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (ld_path != NULL) {
            setenv("LD_LIBRARY_PATH", ld_path, 1);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0, cap = 4096;
    char *out = malloc(cap);
    ssize_t n;
    while (out != NULL && (n = read(fd[0], out + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 2) {
            char *bigger = realloc(out, cap * 2);
            if (bigger == NULL) {
                free(out);
                out = NULL;
                break;
            }
            out = bigger;
            cap *= 2;
        }
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (out == NULL || !WIFEXITED(status) || WEXITSTATUS(status) == 127) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

/* the text between '[' and ']' of a readelf -d line that names tag, into buf */
static int dyn_value(const char *line, const char *tag, char *buf, size_t size)
{
    const char *t = strstr(line, tag);
    const char *open = t != NULL ? strchr(t, '[') : NULL;
    const char *close = open != NULL ? strchr(open, ']') : NULL;
    if (close == NULL) {
        return -1;
    }
    snprintf(buf, size, "%.*s", (int)(close - open - 1), open + 1);
    return 0;
}

/* where ldd, under compi's mpirun's LD_LIBRARY_PATH, resolves soname; into buf */
static int resolved(const char *ldd, const char *soname, char *buf, size_t size)
{
    for (const char *l = ldd; l != NULL && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        while (*l == ' ' || *l == '\t') {
            l++;
        }
        size_t n = strlen(soname);
        if (strncmp(l, soname, n) == 0 && strncmp(l + n, " => ", 4) == 0) {
            const char *p = l + n + 4, *end = strpbrk(p, " \n");
            snprintf(buf, size, "%.*s", (int)(end != NULL ? end - p : (long)strlen(p)), p);
            return 0;
        }
    }
    return -1;
}

static void offers(const char *libdir)
{
    printf("compi's ABIs (libraries in %s):\n", libdir);
    printf("  MPICH's ABI, compi's native one: libmpi.so.12, and libmpich.so.12 beside it;\n"
           "    compile with mpicc (mpi.h)\n");
    printf("  the MPI-5 standard ABI %d.%d: libmpi_abi.so.1, a layer over libmpi.so.12;\n"
           "    compile with mpicc_abi (mpi_abi.h)\n",
           1, 0);
    printf("compi's mpirun puts %s first in its ranks' LD_LIBRARY_PATH, so a program\n"
           "built for either ABI by another MPI loads compi's library.\n",
           libdir);
}

static int program(const char *path, const char *libdir)
{
    char *const readelf[] = {"readelf", "-d", (char *)path, NULL};
    char *dyn = capture(readelf, NULL);
    if (dyn == NULL || strstr(dyn, "NEEDED") == NULL) {
        printf("\n%s: no dynamic section readable (readelf -d; binutils installed?)\n", path);
        free(dyn);
        return 1;
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    char ld_path[2 * PATH_MAX];
    snprintf(ld_path, sizeof ld_path, "%s%s%s", libdir, old != NULL && *old ? ":" : "",
             old != NULL ? old : "");
    char *const ldd_argv[] = {"ldd", (char *)path, NULL};
    char *ldd = capture(ldd_argv, ld_path);

    printf("\n%s:\n", path);
    char value[PATH_MAX], runpath[PATH_MAX] = "", rpath[PATH_MAX] = "";
    int mpi = 0, all_compi = 1;
    for (const char *p = dyn; p != NULL && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        char l[PATH_MAX + 128];
        snprintf(l, sizeof l, "%.*s", (int)strcspn(p, "\n"), p);
        if (dyn_value(l, "(RUNPATH)", value, sizeof value) == 0) {
            snprintf(runpath, sizeof runpath, "%s", value);
        } else if (dyn_value(l, "(RPATH)", value, sizeof value) == 0) {
            snprintf(rpath, sizeof rpath, "%s", value);
        } else if (dyn_value(l, "(NEEDED)", value, sizeof value) == 0) {
            for (size_t i = 0; i < N_MPI_LIBS; i++) {
                if (strcmp(value, mpi_libs[i].soname) != 0) {
                    continue;
                }
                mpi++;
                char file[PATH_MAX] = "", real[PATH_MAX] = "", ours[PATH_MAX + 32];
                int found = ldd != NULL && resolved(ldd, value, file, sizeof file) == 0 &&
                            realpath(file, real) != NULL;
                snprintf(ours, sizeof ours, "%s/", libdir);
                int is_compi = found && strncmp(real, ours, strlen(ours)) == 0;
                all_compi &= is_compi;
                printf("  needs %s: %s%s\n", value, mpi_libs[i].abi,
                       mpi_libs[i].compi ? "" : ", which compi does not offer");
                printf("    under compi's mpirun it loads %s%s\n", found ? real : "(not found)",
                       is_compi ? " (compi's)" : (found ? " (not compi's)" : ""));
            }
        }
    }
    if (runpath[0] != '\0') {
        printf("  RUNPATH %s: searched after LD_LIBRARY_PATH, so compi's mpirun's folder "
               "comes first\n",
               runpath);
    }
    if (rpath[0] != '\0') {
        printf("  RPATH %s: searched before LD_LIBRARY_PATH; an MPI library there is the one "
               "that loads (relink with -Wl,--enable-new-dtags for a RUNPATH, or with compi's "
               "mpicc)\n",
               rpath);
    }
    if (mpi == 0) {
        printf("  needs no MPI library compi knows\n");
    } else {
        printf("  %s\n", all_compi ? "runs on compi under its mpirun"
                                   : "does not run on compi's library as it is");
    }
    free(dyn);
    free(ldd);
    return mpi > 0 && all_compi ? 0 : 1;
}

int compi_info_abi(const char *path)
{
    char libdir[PATH_MAX];
    if (compi_lib_dir(libdir, sizeof libdir) != 0) {
        fprintf(stderr, "compi_info: compi's library folder (with libmpi.so.12) not found\n");
        return 1;
    }
    offers(libdir);
    return path != NULL ? program(path, libdir) : 0;
}
