/*
 * facts.c -- rank facts: host name, IP addresses and hwloc place of every rank.
 *
 * At init each rank finds its own facts (getifaddrs, one light hwloc load) and puts them
 * in the modex under "facts" as one string, "BOUND|PKG,NUMA,CORE,L3|HOST|ADDR,ADDR...",
 * before the fence rte_init does anyway: no extra round.  A peer's facts are fetched
 * from the modex the first time someone asks (creators, on cache misses), so a job that
 * never looks pays nothing more than the put.
 *
 * The place comes from the table of CPU places our mpirun hands down, when there is one
 * (no hwloc in the rank: loading it costs 2-3 ms per rank, 8 ranks on 2 cores pay that in
 * turn, and MPI_Init at np 8 got 8% slower).  Else hwloc is loaded with packages, L3
 * caches, cores and PUs only (NUMA nodes always come) and without the x86 component,
 * which migrates the thread over every PU to run cpuid (tens of milliseconds on a loaded
 * machine); caches then come from sysfs.
 */
#include "topologies/facts.h"
#include "core/runtime/layout.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/rte.h"

#include <arpa/inet.h>
#include <hwloc.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FACTS_KEY "facts"

static topo_facts_t self;    /* this rank's facts, complete after topo_facts_publish */
static topo_facts_t **peers; /* [world_size], filled on first use */
static int npeers;
static rte_layout_t *job_layout; /* rte_layout, parsed by topo_facts_host; NULL: none */

/* ---- parameter values ---------------------------------------------------------------- */

compi_status_t topo_facts_pick(const char *list, char sep, int index, char *buf, size_t len)
{
    const char *start = list, *end;

    if (list == NULL || *list == '\0' || index < 0) {
        return COMPI_ERR_INVALID_PARAM;
    }
    for (int i = 0; i < index; i++) {
        const char *next = strchr(start, sep);
        if (next == NULL) {
            break; /* past the end: the last entry */
        }
        start = next + 1;
    }
    end = strchr(start, sep);
    size_t n = end != NULL ? (size_t)(end - start) : strlen(start);
    if (n >= len) {
        return COMPI_ERR_INVALID_PARAM;
    }
    memcpy(buf, start, n);
    buf[n] = '\0';
    return COMPI_OK;
}

/* a name travels in the modex and in the "|"-separated facts string */
static int facts__good_name(const char *s)
{
    if (*s == '\0') {
        return 0;
    }
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '=' || *s == '|' || *s == ',' || *s == ';') {
            return 0;
        }
    }
    return 1;
}

static const char *facts__hostname_param(void)
{
    return param_register_string(
        "rte_hostname", "",
        "Host name this rank reports (default: gethostname()): NAME for every rank, or "
        "NAME0,NAME1,... one per rank (ranks past the end take the last); lets one machine "
        "pretend to be many hosts (ranks still share memory)");
}

static const char *facts__addresses_param(void)
{
    return param_register_string(
        "rte_addresses", "",
        "IP addresses this rank reports (default: its interfaces'): ADDR/PREFIX[,...] for "
        "every rank, or one such list per rank separated by ';' (ranks past the end take "
        "the last)");
}

/* rte_layout into job_layout, checked against the job and the other two parameters */
static compi_status_t facts__layout(const char *spec)
{
    char err[512];

    if (*facts__hostname_param() != '\0' || *facts__addresses_param() != '\0') {
        compi_log_error("rte_layout is set, and so is %s: the layout gives every rank its "
                        "host name and address; set either rte_layout or rte_hostname and "
                        "rte_addresses",
                        *facts__hostname_param() != '\0' ? "rte_hostname" : "rte_addresses");
        return COMPI_ERR_INVALID_PARAM;
    }
    if (rte_layout_parse(spec, 1 << 24, &job_layout, err, sizeof(err)) != COMPI_OK) {
        compi_log_error("rte_layout='%s': %s", spec, err);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (job_layout->size != rte_proc.world_size) {
        compi_log_error("rte_layout='%s' holds %d rank%s, but the job has %d", spec,
                        job_layout->size, job_layout->size == 1 ? "" : "s",
                        rte_proc.world_size);
        rte_layout_free(job_layout);
        job_layout = NULL;
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

compi_status_t topo_facts_host(const char *real, char *buf, size_t len)
{
    const char *spec = param_register_string(
        "rte_layout", "",
        "Host name and address of every rank, in the syntax of compi-tree --layout: "
        "NAME:COUNT or NAME:COUNT@A.B.C.D/NN, comma-separated (a:2@10.1.0.0/24,b:2@10.2.0.0/24: "
        "ranks 0-1 host a, 10.1.0.1/24 and 10.1.0.2/24; ranks 2-3 host b); the counts must "
        "add up to the job's size; not with rte_hostname or rte_addresses");
    const char *host = facts__hostname_param();

    rte_layout_free(job_layout);
    job_layout = NULL;
    if (spec != NULL && *spec != '\0') {
        compi_status_t st = facts__layout(spec);
        if (st != COMPI_OK) {
            return st;
        }
        snprintf(buf, len, "%s", rte_layout_entry_of(job_layout, rte_proc.world_rank)->name);
        return COMPI_OK;
    }
    if (host == NULL || *host == '\0') {
        snprintf(buf, len, "%s", real);
        return COMPI_OK;
    }
    if (topo_facts_pick(host, ',', rte_proc.world_rank, buf, len) != COMPI_OK ||
        !facts__good_name(buf)) {
        buf[0] = '\0'; /* no host yet: the message says "rank R:" */
        compi_log_error("rte_hostname='%s': entry %d is empty, too long, or holds one of "
                        "' =|;'",
                        host, rte_proc.world_rank);
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

/* "ADDR/PREFIX", checked; the canonical text of ADDR goes into out */
static int facts__parse_one(const char *entry, char *out, size_t len)
{
    char addr[INET6_ADDRSTRLEN + 8], canon[INET6_ADDRSTRLEN];
    unsigned char bin[sizeof(struct in6_addr)];
    const char *slash = strchr(entry, '/');
    char *endp;

    if (slash == NULL || (size_t)(slash - entry) >= sizeof(addr)) {
        return -1;
    }
    memcpy(addr, entry, (size_t)(slash - entry));
    addr[slash - entry] = '\0';
    int family = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
    long prefix = strtol(slash + 1, &endp, 10);
    if (slash[1] == '\0' || *endp != '\0' || prefix < 0 ||
        prefix > (family == AF_INET ? 32 : 128) || inet_pton(family, addr, bin) != 1 ||
        inet_ntop(family, bin, canon, sizeof(canon)) == NULL) {
        return -1;
    }
    return snprintf(out, len, "%s/%ld", canon, prefix) < (int)len ? 0 : -1;
}

compi_status_t topo_facts_parse_addrs(const char *list, topo_facts_t *f, char *err, size_t errlen)
{
    const char *p = list;

    f->naddrs = 0;
    while (*p) {
        char entry[TOPO_FACTS_ADDRLEN + 8];
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);

        if (f->naddrs == TOPO_FACTS_MAXADDRS) {
            snprintf(err, errlen, "more than %d addresses", TOPO_FACTS_MAXADDRS);
            return COMPI_ERR_INVALID_PARAM;
        }
        if (n >= sizeof(entry) ||
            (memcpy(entry, p, n), entry[n] = '\0',
             facts__parse_one(entry, f->addrs[f->naddrs], TOPO_FACTS_ADDRLEN) != 0)) {
            snprintf(err, errlen, "'%.*s' is not ADDR/PREFIX (e.g. 10.1.0.5/24, fd00::5/64)",
                     (int)(n < 64 ? n : 64), p);
            return COMPI_ERR_INVALID_PARAM;
        }
        f->naddrs++;
        p += n;
        if (*p == ',') {
            p++;
        }
    }
    return COMPI_OK;
}

/* ---- this rank's addresses ------------------------------------------------------------ */

static int facts__prefix(const struct sockaddr *mask, int family)
{
    const unsigned char *b;
    size_t n;
    int bits = 0;

    if (mask == NULL) {
        return family == AF_INET ? 32 : 128;
    }
    if (family == AF_INET) {
        b = (const unsigned char *)&((const struct sockaddr_in *)mask)->sin_addr;
        n = 4;
    } else {
        b = (const unsigned char *)&((const struct sockaddr_in6 *)mask)->sin6_addr;
        n = 16;
    }
    for (size_t i = 0; i < n; i++) {
        bits += __builtin_popcount(b[i]);
    }
    return bits;
}

/* Four passes over the interfaces: non-loopback IPv4, non-loopback IPv6, then the
   loopback ones in the same order, so that the first address is the one worth routing. */
static void facts__own_addrs(topo_facts_t *f)
{
    struct ifaddrs *all;

    f->naddrs = 0;
    if (getifaddrs(&all) != 0) {
        compi_log_warn("getifaddrs failed: this rank reports no addresses");
        return;
    }
    for (int pass = 0; pass < 4; pass++) {
        int want_loop = pass >= 2, family = pass % 2 == 0 ? AF_INET : AF_INET6;

        for (struct ifaddrs *i = all; i != NULL; i = i->ifa_next) {
            char text[INET6_ADDRSTRLEN];
            const void *bin;

            if (i->ifa_addr == NULL || i->ifa_addr->sa_family != family ||
                !(i->ifa_flags & IFF_UP) || !!(i->ifa_flags & IFF_LOOPBACK) != want_loop ||
                f->naddrs == TOPO_FACTS_MAXADDRS) {
                continue;
            }
            bin = family == AF_INET
                      ? (const void *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr
                      : (const void *)&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
            if (inet_ntop(family, bin, text, sizeof(text)) == NULL) {
                continue;
            }
            snprintf(f->addrs[f->naddrs++], TOPO_FACTS_ADDRLEN, "%s/%d", text,
                     facts__prefix(i->ifa_netmask, family));
        }
    }
    freeifaddrs(all);
}

static compi_status_t facts__addrs(topo_facts_t *f)
{
    const char *over = facts__addresses_param();
    char mine[RTE_MODEX_VALMAX], err[160];

    if (job_layout != NULL) {
        /* the layout's address, or none where its entry gives no subnet */
        f->naddrs = rte_layout_addr(job_layout, rte_proc.world_rank, f->addrs[0],
                                    sizeof(f->addrs[0]));
        return COMPI_OK;
    }
    if (over == NULL || *over == '\0') {
        facts__own_addrs(f);
        return COMPI_OK;
    }
    if (topo_facts_pick(over, ';', rte_proc.world_rank, mine, sizeof(mine)) != COMPI_OK) {
        compi_log_error("rte_addresses='%s': entry %d is empty or too long", over,
                        rte_proc.world_rank);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (topo_facts_parse_addrs(mine, f, err, sizeof(err)) != COMPI_OK) {
        compi_log_error("rte_addresses, entry of rank %d: %s", rte_proc.world_rank, err);
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

/* ---- this rank's place ---------------------------------------------------------------- */

static int facts__index_of(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_cpuset_t in)
{
    int n = hwloc_get_nbobjs_by_type(topo, type);

    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);
        if (o->cpuset != NULL && hwloc_bitmap_isincluded(in, o->cpuset)) {
            return (int)o->logical_index;
        }
    }
    return -1;
}

/*
 * The place from the table our mpirun hands down (COMPI_CPU_PLACES, see launcher/bind.c):
 * "HOST|CPU:PKG,NUMA,CORE,L3;..." (L3 -1: no L3 cache holds the CPU).  The same rule as
 * below with hwloc: bound when our affinity leaves out a CPU of the machine; the core of
 * the binding when it is one core, else the core we run on now.  -1 when there is no
 * table for this host, or our CPUs are not all in it: then hwloc decides.
 */
static int facts__place_from_table(topo_facts_t *f, const char *real_host)
{
    const char *t = getenv("COMPI_CPU_PLACES"), *bar;
    cpu_set_t set;
    int now = sched_getcpu(), core = -2, ncpus = 0, insets = 0;

    if (t == NULL || (bar = strchr(t, '|')) == NULL || strlen(real_host) != (size_t)(bar - t) ||
        strncmp(t, real_host, (size_t)(bar - t)) != 0 ||
        sched_getaffinity(0, sizeof(set), &set) != 0) {
        return -1;
    }
    f->bound = 0;
    for (const char *p = bar + 1; *p;) {
        int cpu, pkg, numa, c, l3, used = 0;
        if (sscanf(p, "%d:%d,%d,%d,%d%n", &cpu, &pkg, &numa, &c, &l3, &used) != 5 || cpu < 0 ||
            cpu >= CPU_SETSIZE) {
            return -1; /* malformed, or the form of another version of mpirun */
        }
        ncpus++;
        if (CPU_ISSET(cpu, &set)) {
            insets++;
            core = core == -2 || core == c ? c : -1; /* -1: more than one core */
        } else {
            f->bound = 1;
        }
        if (cpu == now) {
            f->package = pkg;
            f->numa = numa;
            f->core = c;
            f->l3 = l3;
        }
        p += used;
        p += *p == ';';
    }
    if (insets != CPU_COUNT(&set) || ncpus == 0) {
        return -1; /* CPUs the table does not know */
    }
    if (core >= 0 && core != f->core) {
        /* bound to one core but not running on it yet: the binding says where */
        for (const char *p = bar + 1; *p;) {
            int cpu, pkg, numa, c, l3, used = 0;
            sscanf(p, "%d:%d,%d,%d,%d%n", &cpu, &pkg, &numa, &c, &l3, &used);
            if (c == core) {
                f->package = pkg;
                f->numa = numa;
                f->core = c;
                f->l3 = l3;
                break;
            }
            p += used;
            p += *p == ';';
        }
    }
    return f->core >= 0 ? 0 : -1;
}

static void facts__place(topo_facts_t *f, const char *real_host)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t bind = NULL, last = NULL;

    f->package = f->numa = f->core = f->l3 = -1;
    f->bound = 0;
    if (facts__place_from_table(f, real_host) == 0) {
        return;
    }
    f->package = f->numa = f->core = f->l3 = -1;
    f->bound = 0;
    if (hwloc_topology_init(&topo) != 0) {
        return;
    }
    hwloc_topology_set_all_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(topo, HWLOC_OBJ_PACKAGE, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(topo, HWLOC_OBJ_L3CACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(topo, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(topo, HWLOC_OBJ_PU, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
    bind = hwloc_bitmap_alloc();
    last = hwloc_bitmap_alloc();
    if (bind == NULL || last == NULL || hwloc_topology_load(topo) != 0 ||
        hwloc_get_cpubind(topo, bind, HWLOC_CPUBIND_THREAD) != 0) {
        goto out;
    }
    hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
    f->bound = !hwloc_bitmap_isincluded(all, bind);

    /* the place is the core of the binding when it is one core, else where we run now */
    hwloc_const_cpuset_t where = bind;
    int core = facts__index_of(topo, HWLOC_OBJ_CORE, bind);
    if (core < 0) {
        if (hwloc_get_last_cpu_location(topo, last, HWLOC_CPUBIND_THREAD) != 0) {
            goto out;
        }
        where = last;
        core = facts__index_of(topo, HWLOC_OBJ_CORE, last);
    }
    f->core = core;
    f->package = facts__index_of(topo, HWLOC_OBJ_PACKAGE, where);
    f->numa = facts__index_of(topo, HWLOC_OBJ_NUMANODE, where);
    f->l3 = facts__index_of(topo, HWLOC_OBJ_L3CACHE, where);
    /* machines without a package object (some VMs) are one package */
    if (f->package < 0 && core >= 0) {
        f->package = 0;
    }
out:
    hwloc_bitmap_free(bind);
    hwloc_bitmap_free(last);
    hwloc_topology_destroy(topo);
}

/* ---- the modex form ------------------------------------------------------------------- */

compi_status_t topo_facts_encode(const topo_facts_t *f, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%d|%d,%d,%d,%d|%s|", f->bound, f->package, f->numa, f->core, f->l3,
                     f->host);
    if (n < 0 || (size_t)n >= len) {
        return COMPI_ERR_INVALID_PARAM;
    }
    for (int i = 0; i < f->naddrs; i++) {
        size_t need = strlen(f->addrs[i]) + (i > 0);
        if ((size_t)n + need >= len) {
            /* too many to publish (hosts with many virtual interfaces): the first ones,
               not loopback, are the ones that matter */
            break;
        }
        n += snprintf(buf + n, len - (size_t)n, "%s%s", i > 0 ? "," : "", f->addrs[i]);
    }
    return COMPI_OK;
}

compi_status_t topo_facts_decode(const char *s, topo_facts_t *f)
{
    int used = 0;
    char err[160];

    if (sscanf(s, "%d|%d,%d,%d,%d|%n", &f->bound, &f->package, &f->numa, &f->core, &f->l3, &used) !=
            5 ||
        used == 0) {
        return COMPI_ERR_INVALID_PARAM;
    }
    s += used;
    const char *bar = strchr(s, '|');
    if (bar == NULL || (size_t)(bar - s) >= sizeof(f->host)) {
        return COMPI_ERR_INVALID_PARAM;
    }
    memcpy(f->host, s, (size_t)(bar - s));
    f->host[bar - s] = '\0';
    return topo_facts_parse_addrs(bar + 1, f, err, sizeof(err));
}

/* ---- publish and read ----------------------------------------------------------------- */

compi_status_t topo_facts_publish(void)
{
    char value[RTE_MODEX_VALMAX + 1], real[256] = "localhost";
    compi_status_t st;

    memset(&self, 0, sizeof(self));
    self.world_rank = rte_proc.world_rank;
    snprintf(self.host, sizeof(self.host), "%s", rte_proc.hostname);
    if ((st = facts__addrs(&self)) != COMPI_OK) {
        return st;
    }
    gethostname(real, sizeof(real) - 1);
    facts__place(&self, real);

    npeers = rte_proc.world_size;
    peers = calloc((size_t)npeers, sizeof(*peers));
    if (peers == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    peers[self.world_rank] = &self;
    if (rte_proc.world_size == 1 && !rte_dynamic()) {
        return COMPI_OK; /* nobody will read them */
    }
    if ((st = topo_facts_encode(&self, value, sizeof(value))) != COMPI_OK) {
        compi_log_error("rank facts do not fit in the modex (host name '%s')", self.host);
        return st;
    }
    return rte_modex_put(FACTS_KEY, value);
}

const topo_facts_t *topo_facts(int world_rank)
{
    char value[RTE_MODEX_VALMAX + 1];
    topo_facts_t *f;
    compi_status_t st;

    if (peers != NULL && world_rank >= npeers && world_rank < rte_peer_count()) {
        /* a process of another world (rte.h), met since */
        topo_facts_t **grown = realloc(peers, (size_t)rte_peer_count() * sizeof(*peers));
        if (grown == NULL) {
            compi_log_error("out of memory for the facts of rank %d", world_rank);
            return NULL;
        }
        memset(grown + npeers, 0, (size_t)(rte_peer_count() - npeers) * sizeof(*peers));
        peers = grown;
        npeers = rte_peer_count();
    }
    if (peers == NULL || world_rank < 0 || world_rank >= npeers) {
        compi_log_error("no facts for rank %d (world size %d)", world_rank, npeers);
        return NULL;
    }
    if (peers[world_rank] != NULL) {
        return peers[world_rank];
    }
    f = calloc(1, sizeof(*f));
    if (f == NULL) {
        compi_log_error("out of memory for the facts of rank %d", world_rank);
        return NULL;
    }
    st = rte_modex_get(world_rank, FACTS_KEY, value, sizeof(value));
    if (st != COMPI_OK || topo_facts_decode(value, f) != COMPI_OK) {
        compi_log_error("cannot read the facts of rank %d: %s", world_rank,
                        st != COMPI_OK ? compi_status_string(st) : "malformed value");
        free(f);
        return NULL;
    }
    f->world_rank = world_rank;
    peers[world_rank] = f;
    return f;
}

compi_status_t topo_facts_from_layout(const rte_layout_t *l)
{
    topo_facts_finalize();
    peers = calloc((size_t)l->size, sizeof(*peers));
    if (peers == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    npeers = l->size;
    for (int r = 0; r < l->size; r++) {
        topo_facts_t *f = calloc(1, sizeof(*f));
        if (f == NULL) {
            topo_facts_finalize();
            return COMPI_ERR_NO_MEMORY;
        }
        f->world_rank = r;
        snprintf(f->host, sizeof(f->host), "%s", rte_layout_entry_of(l, r)->name);
        f->naddrs = rte_layout_addr(l, r, f->addrs[0], sizeof(f->addrs[0]));
        f->package = f->numa = f->core = f->l3 = -1;
        peers[r] = f;
    }
    return COMPI_OK;
}

void topo_facts_finalize(void)
{
    rte_layout_free(job_layout);
    job_layout = NULL;
    for (int i = 0; peers != NULL && i < npeers; i++) {
        if (peers[i] != &self) {
            free(peers[i]);
        }
    }
    free(peers);
    peers = NULL;
    npeers = 0;
}
