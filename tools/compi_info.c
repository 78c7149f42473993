/*
 * compi_info -- what this compi installation has: version, transports, parameters
 * (with defaults, current values and help), native collective algorithms, and the
 * creators installed per collective kind (the defaults plus any config files named by
 * --coll-config / COMPI_COLL_CONFIG); with --abi, the ABIs it offers and what a program
 * built elsewhere loads (tools/compi_info_abi.c).
 *
 * It starts the library as a singleton (MPI_Init without a launcher), so every
 * parameter that start-up reads is registered and listed, and config files load
 * exactly as they would in a job.
 */
#include "scheme/bridge.h"
#include "core/coll/coll.h"
#include "core/runtime/params.h"
#include "tools/compi_info_abi.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: compi_info [--all | --params | --algorithms | --creators] "
               "[--coll-config FILE]\n"
               "       compi_info --abi [PROGRAM]\n"
               "  --params       run-time parameters (set with mpirun --mca NAME VALUE or\n"
               "                 COMPI_MCA_NAME=VALUE)\n"
               "  --algorithms   native collective algorithms creators can choose from\n"
               "  --creators     creators installed per collective kind, latest first\n"
               "  --coll-config FILE   load FILE (colon-separated list) as a job would\n"
               "  --abi [PROGRAM]  the ABIs compi offers (MPICH's, the MPI-5 standard's) and\n"
               "                 which MPI library PROGRAM loads under compi's mpirun\n"
               "With no option, everything is printed.\n");
}

static void print_params(void)
{
    printf("\nParameters (mpirun --mca NAME VALUE, or COMPI_MCA_NAME=VALUE):\n");
    for (size_t i = 0; i < param_count(); i++) {
        const param_desc_t *p = param_get(i);
        printf("  %-28s default \"%s\"", p->name, p->defval);
        if (strcmp(p->value, p->defval) != 0) {
            printf(", now \"%s\"", p->value);
        }
        printf("\n      %s\n", p->help);
    }
}

static void print_algorithms(void)
{
    size_t n;
    const coll_algo_t *const *all = coll_algo_all(&n);
    printf("\nNative collective algorithms ((native 'KIND 'NAME #:fanout K #:segsize N)); "
           "[nonblocking]: it has a schedule, so it can serve MPI_I* calls;\n"
           "[tree]: a tree shape run by the tree executors, blocking and as a schedule:\n");
    for (int k = 0; k < COLL_NKINDS; k++) {
        for (size_t i = 0; i < n; i++) {
            if ((int)all[i]->kind == k) {
                printf("  %-22s %-22s %-16s %s%s%s\n", coll_kind_name(all[i]->kind), all[i]->name,
                       coll_param_names(all[i]->params), all[i]->help,
                       all[i]->sched != NULL || all[i]->tree != NULL ? " [nonblocking]" : "",
                       all[i]->tree != NULL ? " [tree]" : "");
            }
        }
    }
}

static void print_creators(void)
{
    char buf[512];
    printf("\nCreators per collective kind (latest installed first):\n");
    for (int k = 0; k < COLL_NKINDS; k++) {
        size_t count = 0;
        if (bridge_creator_count((bridge_kind_t)k, &count) != COMPI_OK) {
            continue;
        }
        printf("  %s:\n", coll_kind_name((coll_kind_t)k));
        for (size_t i = 0; i < count; i++) {
            if (bridge_creator_describe((bridge_kind_t)k, i, buf, sizeof(buf)) == COMPI_OK) {
                printf("    %s\n", buf);
            }
        }
    }
}

int main(int argc, char **argv)
{
    int params = 0, algos = 0, creators = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--params") == 0) {
            params = 1;
        } else if (strcmp(argv[i], "--algorithms") == 0) {
            algos = 1;
        } else if (strcmp(argv[i], "--creators") == 0) {
            creators = 1;
        } else if (strcmp(argv[i], "--all") == 0) {
            params = algos = creators = 1;
        } else if (strcmp(argv[i], "--abi") == 0) {
            return compi_info_abi(i + 1 < argc ? argv[i + 1] : NULL);
        } else if (strcmp(argv[i], "--coll-config") == 0 && i + 1 < argc) {
            setenv("COMPI_COLL_CONFIG", argv[++i], 1);
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "compi_info: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 1;
        }
    }
    if (!params && !algos && !creators) {
        params = algos = creators = 1;
    }

    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Init(&argc, &argv);
    MPI_Get_library_version(version, &len);
    printf("%s\n", version);
    printf("  Scheme modules from %s\n", bridge_source_dir());
    const char *cfg = bridge_config_list();
    printf("  config files: %s\n", cfg != NULL && *cfg ? cfg : "(none)");
    if (params) {
        print_params();
    }
    if (algos) {
        print_algorithms();
    }
    if (creators) {
        print_creators();
    }
    MPI_Finalize();
    return 0;
}
