/*
 * btl_ofi_component.c -- the libfabric component: parameters, whether to run, open().
 *
 * Which peers ofi serves: those on other hosts always; those on this host only when sm
 * is not in the "btl" list (--mca btl self,ofi), or when btl_ofi_local=1 says so (sm
 * still wins them where both reach, by exclusivity).  When every rank of the job is on
 * this host and ofi would serve none of them, it declines before touching libfabric, so
 * single-host jobs pay only for loading the module.  The peers of other jobs, on other
 * hosts, that MPI_Comm_connect / MPI_Comm_accept may bring are served by opening it later,
 * when a port's meeting finds one (btl_services_t.late_open: the PML opens it then), or,
 * with btl_ofi_dynamic=1, at MPI_Init anyway (with an address other hosts reach);
 * btl_ofi_dynamic=0 never opens it for them.  Peers of other worlds are served in any
 * job that can meet them (btl_services_t.universe), never those on this host that sm
 * reaches.
 */
#include "core/btl/ofi/btl_ofi.h"

#include <ctype.h>
#include <string.h>

/* is `name` one of the comma-separated names of `list`? */
static int list_has(const char *list, const char *name)
{
    size_t l = strlen(name);

    for (const char *p = list; p != NULL && *p != '\0';) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        size_t k = 0;
        while (p[k] != '\0' && p[k] != ',' && !isspace((unsigned char)p[k]))
            k++;
        if (k == l && strncmp(p, name, l) == 0)
            return 1;
        p += k;
    }
    return 0;
}

static btl_module_t *btl_ofi_open(const btl_services_t *svc)
{
    if (svc->size < sizeof(btl_services_t)) {
        svc->log_error("btl ofi: services table too old (%zu bytes)", svc->size);
        return NULL;
    }
    const char *provider =
        svc->param_string("btl_ofi_provider", "auto",
                          "libfabric provider (\"tcp\", \"tcp;ofi_rxm\", \"verbs\", ...); auto: "
                          "libfabric's first choice that reaches other hosts");
    const char *iface = svc->param_string("btl_ofi_iface", "",
                                          "network interface (libfabric domain) to use, e.g. "
                                          "eth0; empty: the provider's first one that other "
                                          "hosts can reach (FI_TCP_IFACE works too)");
    long local = btl_param_int(svc, "btl_ofi_local", -1, -1, 1,
                               "serve peers on this host too: 1 yes, 0 no, -1 only when sm "
                               "is not in the btl list");
    /* defaults measured with tcp;ofi_rxm between two ranks of one host (pingpong,
       bandwidth): a 64 KiB eager limit halves the latency at 16 KiB against 16 KiB, and
       256 KiB fragments take 4 MiB messages from about 2.2 to 3 GB/s against 64 KiB
       (rxm reads each fragment above 16 KiB in a round trip of its own); 32 + 16
       buffers keep the pools at 12 MiB */
    long eager = btl_param_int(svc, "btl_ofi_eager_limit", 64 * 1024, 64, 64L << 20,
                               "largest message the PML sends eagerly over libfabric");
    long max_frag = btl_param_int(svc, "btl_ofi_max_frag", 256 * 1024, 64, 64L << 20,
                                  "largest fragment of the pipeline for large messages "
                                  "(the same on every rank)");
    long n_tx =
        btl_param_int(svc, "btl_ofi_tx_bufs", 32, 2, 1 << 16, "send buffers (of max_frag bytes)");
    long n_rx = btl_param_int(svc, "btl_ofi_rx_bufs", 16, 2, 1 << 16,
                              "receive buffers (of max_frag bytes) kept posted");
    long dyn = btl_param_int(svc, "btl_ofi_dynamic", 2, 0, 2,
                             "in a job on one host (under compi's mpirun), for the processes "
                             "of a job on another host that MPI_Comm_connect / MPI_Comm_accept "
                             "meet: 2 opens ofi at the first such meeting (which pays "
                             "libfabric's start-up, about 0.4 s), 1 at MPI_Init, 0 never (the "
                             "meeting fails with MPI_ERR_PORT)");
    /* registered by btl_base before any component opens: this reads its value */
    const char *btls = svc->param_string("btl", "", NULL);
    int late =
        svc->size >= offsetof(btl_services_t, late_open) + sizeof(svc->late_open) && svc->late_open;

    int serve_local = local > 0 || (local < 0 && !list_has(btls, "sm"));
    int need_remote = svc->local_size < svc->world_size;
    int dynamic = svc->universe != NULL; /* other worlds may come (btl.h) */
    if (late && !dynamic) {
        svc->log_error("btl ofi: this job cannot meet other jobs (not under compi's mpirun)");
        return NULL;
    }
    if (late && dyn == 0) {
        svc->log_error("btl ofi: btl_ofi_dynamic=0 keeps it closed for the processes of "
                       "other jobs on other hosts");
        return NULL;
    }
    /* open for them alone if need be: now (late), or at MPI_Init with btl_ofi_dynamic=1 */
    int for_others = dynamic && (late || dyn == 1);
    if (svc->world_size < 2 && !for_others) {
        svc->log_verbose(1, "btl ofi: no other rank in the job, not used");
        return NULL;
    }
    if (!need_remote && !serve_local && !for_others) {
        svc->log_verbose(1,
                         "btl ofi: every rank is on this host and sm serves them, not used "
                         "(btl_ofi_local=1, btl_ofi_dynamic=1 or a btl list without sm "
                         "would use it%s)",
                         dynamic && dyn == 2 ? "; a port's meeting with a job on another host "
                                               "opens it then"
                                             : "");
        return NULL;
    }
    if (dyn == 1 && !dynamic)
        svc->log_verbose(1, "btl ofi: btl_ofi_dynamic=1, but this job cannot meet other jobs "
                            "(not under compi's mpirun on one host)");
    /* a job on one host that opens for other hosts' jobs needs an address they reach */
    need_remote = need_remote || for_others;
    if (eager < 64 || max_frag < eager || max_frag > 64L * 1024 * 1024) {
        svc->log_error("btl ofi: need 64 <= eager_limit (%ld) <= max_frag (%ld) <= 64 MiB", eager,
                       max_frag);
        return NULL;
    }
    if (n_tx < 2 || n_rx < 2 || n_tx > 65536 || n_rx > 65536) {
        svc->log_error("btl ofi: btl_ofi_tx_bufs (%ld) and btl_ofi_rx_bufs (%ld) must be "
                       "between 2 and 65536",
                       n_tx, n_rx);
        return NULL;
    }
    if (provider[0] == '\0')
        provider = "auto";

    ofi_config_t cfg = {
        .provider = provider,
        .iface = iface,
        .need_remote = need_remote,
        .max_frag = (size_t)max_frag,
        .n_tx = (int)n_tx,
        .n_rx = (int)n_rx,
    };
    if (btl_ofi_init(svc, &cfg, (size_t)eager, serve_local, dynamic) != COMPI_OK)
        return NULL;
    return &btl_ofi_module;
}

__attribute__((visibility("default"))) const btl_component_t compi_btl_ofi_component = {
    .size = sizeof(btl_component_t),
    .abi_version = BTL_ABI_VERSION,
    .name = "ofi",
    .description = "libfabric reliable datagrams (tcp, verbs, ...) between hosts",
    .open = btl_ofi_open,
};
