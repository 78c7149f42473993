/*
 * facts.c -- helper program of tests/mpi/facts.sh: rank facts as every rank sees them.
 *
 * Unlike the other programs here it links the library's internals (topo_facts), since
 * the facts have no MPI API.  Each rank checks, for every rank r of the job:
 *   - host: the r-th entry of COMPI_MCA_rte_hostname (',' list) when set, else the same
 *     name for everyone as this rank's gethostname();
 *   - addresses: the r-th ';' entry of COMPI_MCA_rte_addresses when set, else, for
 *     itself, at least one address, loopback ones last;
 *   - that what it reads of r equals what r says of itself (gathered with MPI_Allgather);
 *   - for itself, "bound" matches /proc/self/status (Cpus_allowed_list a single CPU when
 *     the test expects a core binding: argument "bound"/"unbound").
 * Then it runs MPI_Barrier on WORLD and on WORLD reversed (so a config's barrier creator
 * sees both orders), and rank 0 prints each rank's facts, one line each,
 * "facts: R HOST ADDRS PKG,NUMA,CORE,L3 bound|unbound", for the script to compare.
 */
#include "core/runtime/rte.h"
#include "topologies/facts.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENC_LEN 2048

static int errors;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "facts: rank %d: line %d: ", me, __LINE__);                            \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            errors++;                                                                              \
        }                                                                                          \
    } while (0)

static void addrs_text(const topo_facts_t *f, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < f->naddrs && n < len; i++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", f->addrs[i]);
    }
    if (f->naddrs == 0) {
        snprintf(buf, len, "-");
    }
}

/* 1 when /proc/self/status says we may run on one CPU only */
static int one_cpu(void)
{
    char line[512];
    int one = 0;
    FILE *fp = fopen("/proc/self/status", "r");
    while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            one = strpbrk(line + 18, ",-") == NULL;
        }
    }
    if (fp != NULL) {
        fclose(fp);
    }
    return one;
}

int main(int argc, char **argv)
{
    int me, size;
    const char *expect_bind = argc > 1 ? argv[1] : "any";
    const char *hosts = getenv("COMPI_MCA_rte_hostname");
    const char *addrs = getenv("COMPI_MCA_rte_addresses");
    char real[256] = "";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gethostname(real, sizeof(real) - 1);

    char *all = calloc((size_t)size, ENC_LEN), mine[ENC_LEN];
    const topo_facts_t *self = topo_facts(me);
    CHECK(self != NULL, "no facts for itself");
    if (self == NULL || all == NULL) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(mine, 0, sizeof(mine));
    topo_facts_encode(self, mine, sizeof(mine));
    MPI_Allgather(mine, ENC_LEN, MPI_CHAR, all, ENC_LEN, MPI_CHAR, MPI_COMM_WORLD);

    for (int r = 0; r < size; r++) {
        const topo_facts_t *f = topo_facts(r);
        char want[RTE_MODEX_VALMAX], seen[ENC_LEN];

        CHECK(f != NULL, "no facts for rank %d", r);
        if (f == NULL) {
            continue;
        }
        CHECK(f->world_rank == r, "rank %d: world rank %d", r, f->world_rank);
        if (hosts != NULL && *hosts) {
            topo_facts_pick(hosts, ',', r, want, sizeof(want));
        } else {
            snprintf(want, sizeof(want), "%s", real);
        }
        CHECK(strcmp(f->host, want) == 0, "rank %d: host '%s', expected '%s'", r, f->host, want);
        if (addrs != NULL && *addrs) {
            char got[ENC_LEN];
            topo_facts_pick(addrs, ';', r, want, sizeof(want));
            addrs_text(f, got, sizeof(got));
            CHECK(strcmp(got, want) == 0, "rank %d: addresses '%s', expected '%s'", r, got, want);
        } else if (r == me) {
            int seen_loop = 0;
            CHECK(f->naddrs > 0, "no addresses found");
            for (int i = 0; i < f->naddrs; i++) {
                int loop =
                    strncmp(f->addrs[i], "127.", 4) == 0 || strncmp(f->addrs[i], "::1/", 4) == 0;
                CHECK(loop || !seen_loop, "non-loopback %s after a loopback", f->addrs[i]);
                seen_loop |= loop;
            }
        }
        memset(seen, 0, sizeof(seen));
        topo_facts_encode(f, seen, sizeof(seen));
        CHECK(strcmp(seen, all + (size_t)r * ENC_LEN) == 0, "rank %d: read '%s', it says '%s'", r,
              seen, all + (size_t)r * ENC_LEN);
    }

    CHECK(self->core >= 0 && self->numa >= 0 && self->package >= 0, "place unknown: %d %d %d",
          self->package, self->numa, self->core);
    if (strcmp(expect_bind, "bound") == 0) {
        CHECK(self->bound && one_cpu(), "expected a binding to one core: bound=%d one_cpu=%d",
              self->bound, one_cpu());
    } else if (strcmp(expect_bind, "unbound") == 0) {
        CHECK(!self->bound && !one_cpu(), "expected no binding: bound=%d one_cpu=%d", self->bound,
              one_cpu());
    }

    /* the same barrier on WORLD and on WORLD reversed: a config's creator sees both */
    MPI_Comm rev;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - me, &rev);
    MPI_Barrier(rev);
    MPI_Comm_free(&rev);
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0) {
        for (int r = 0; r < size; r++) {
            const topo_facts_t *f = topo_facts(r);
            char a[ENC_LEN];
            if (f == NULL) {
                continue;
            }
            addrs_text(f, a, sizeof(a));
            printf("facts: %d %s %s %d,%d,%d,%d %s\n", r, f->host, a, f->package, f->numa, f->core,
                   f->l3, f->bound ? "bound" : "unbound");
        }
        if (total == 0) {
            printf("ok: facts np=%d\n", size);
        }
    }
    free(all);
    MPI_Finalize();
    return total != 0;
}
