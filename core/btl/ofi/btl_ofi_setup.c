/*
 * btl_ofi_setup.c -- choosing a libfabric provider and opening (and closing) its objects.
 *
 * What we ask of a provider: reliable datagrams (FI_EP_RDM), two-sided messages (FI_MSG),
 * sends between a pair delivered in the order they were posted (FI_ORDER_SAS, which the
 * BTL contract demands).  Everything else we accept as offered: local registration of
 * our buffers (FI_MR_LOCAL), operation contexts (FI_CONTEXT / FI_CONTEXT2), manual or
 * automatic progress (we call fi_cq_read from progress() either way).
 *
 * With provider "auto" we take libfabric's own order of preference and skip providers
 * that only reach this host (shm) or that are kept for debugging (sockets), and, when
 * some peer is on another host, loopback and link-local addresses.  With libfabric 1.17
 * on a host with only Ethernet the first choice is "tcp;ofi_rxm" (the tcp provider gives
 * connected endpoints only; the rxm utility provider turns them into reliable datagrams);
 * "net" (TCP RDM written directly) and "udp;ofi_rxd" come after it.
 */
#include "core/btl/ofi/btl_ofi.h"

#include "core/include/compi_common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OFI_API_VERSION FI_VERSION(1, 9)

static struct fi_info *make_hints(void)
{
    struct fi_info *h = btl_ofi_lib.dupinfo(NULL);

    if (h == NULL)
        return NULL;
    h->ep_attr->type = FI_EP_RDM;
    h->caps = FI_MSG;
    h->tx_attr->msg_order = FI_ORDER_SAS;
    h->rx_attr->msg_order = FI_ORDER_SAS;
    h->mode = FI_CONTEXT | FI_CONTEXT2;
    h->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_ALLOCATED | FI_MR_VIRT_ADDR | FI_MR_PROV_KEY;
    h->domain_attr->threading = FI_THREAD_DOMAIN;
    h->domain_attr->resource_mgmt = FI_RM_ENABLED;
    return h;
}

/* "tcp" names "tcp;ofi_rxm" too: the first layer of a stacked provider */
static int prov_matches(const char *want, const char *prov)
{
    size_t l = strlen(want);

    if (strcmp(want, prov) == 0)
        return 1;
    return strchr(want, ';') == NULL && strncmp(prov, want, l) == 0 && prov[l] == ';';
}

/* providers that never leave this host, or that libfabric keeps for testing */
static int prov_local_only(const char *prov)
{
    return prov_matches("shm", prov) || prov_matches("sockets", prov);
}

/* a source address that only this host (or only this link) can use */
static int addr_loopback_or_link(const struct fi_info *fi)
{
    if (fi->src_addr == NULL)
        return 0;
    if (fi->addr_format == FI_SOCKADDR_IN && fi->src_addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *a = fi->src_addr;
        return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
    }
    if (fi->addr_format == FI_SOCKADDR_IN6 && fi->src_addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *a = fi->src_addr;
        return IN6_IS_ADDR_LOOPBACK(&a->sin6_addr) || IN6_IS_ADDR_LINKLOCAL(&a->sin6_addr);
    }
    return 0;
}

/* does provider `prov` answer btl_ofi_provider=`want` ("auto": any that leaves the host) */
static int prov_wanted(const char *want, const char *prov)
{
    return strcmp(want, "auto") == 0 ? !prov_local_only(prov) : prov_matches(want, prov);
}

static const char *prov_of(const struct fi_info *fi)
{
    return fi->fabric_attr->prov_name;
}

static const char *domain_of(const struct fi_info *fi)
{
    return fi->domain_attr->name;
}

/* the distinct names (of providers, of domains) in `list`, comma separated, into buf;
   with `prov`, only the entries of that provider */
static void list_names(const struct fi_info *list, const char *(*name_of)(const struct fi_info *),
                       const char *prov, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (const struct fi_info *fi = list; fi != NULL; fi = fi->next) {
        const char *p = name_of(fi);
        int seen = prov != NULL && !prov_wanted(prov, prov_of(fi));
        for (const struct fi_info *g = list; g != fi && !seen; g = g->next)
            seen = strcmp(name_of(g), p) == 0 && (prov == NULL || prov_wanted(prov, prov_of(g)));
        if (seen || used >= len)
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", p);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used == 0)
        snprintf(buf, len, "none");
}

compi_status_t btl_ofi_pick(const btl_services_t *svc, const ofi_config_t *cfg,
                            struct fi_info **info_p)
{
    struct fi_info *hints = make_hints(), *list = NULL, *pick = NULL;
    int any_auto = strcmp(cfg->provider, "auto") == 0;
    char avail[512];
    compi_status_t st = COMPI_ERR_NOT_FOUND;

    if (hints == NULL) {
        svc->log_error("btl ofi: out of memory");
        return COMPI_ERR_NO_MEMORY;
    }
    int rc = btl_ofi_lib.getinfo(OFI_API_VERSION, NULL, NULL, 0, hints, &list);
    if (rc != 0 && rc != -FI_ENODATA) {
        svc->log_error("btl ofi: fi_getinfo: %s", btl_ofi_lib.strerror(-rc));
        goto out;
    }
    int skipped_iface = 0, skipped_loop = 0;
    for (struct fi_info *fi = list; fi != NULL && pick == NULL; fi = fi->next) {
        if (!prov_wanted(cfg->provider, prov_of(fi)))
            continue;
        if (cfg->iface[0] != '\0' && strcmp(fi->domain_attr->name, cfg->iface) != 0) {
            skipped_iface++;
            continue;
        }
        if (cfg->need_remote && addr_loopback_or_link(fi)) {
            skipped_loop++;
            continue;
        }
        if (fi->ep_attr->max_msg_size < cfg->max_frag + sizeof(ofi_wire_hdr_t))
            continue;
        pick = fi;
    }
    if (pick == NULL) {
        list_names(list, prov_of, NULL, avail, sizeof(avail));
        if (skipped_iface > 0) {
            char doms[512];
            list_names(list, domain_of, cfg->provider, doms, sizeof(doms));
            svc->log_error("btl ofi: btl_ofi_iface=%s: provider %s has no such domain "
                           "(interface); it has: %s",
                           cfg->iface, cfg->provider, doms);
        } else if (skipped_loop > 0)
            svc->log_error("btl ofi: provider %s has only addresses that other hosts cannot "
                           "reach (loopback, link-local)",
                           cfg->provider);
        else if (any_auto)
            svc->log_error("btl ofi: no libfabric provider here gives reliable datagrams "
                           "between hosts (providers with FI_EP_RDM, FI_MSG, FI_ORDER_SAS: %s)",
                           avail);
        else
            svc->log_error("btl ofi: provider '%s' (btl_ofi_provider) is not available here "
                           "with FI_EP_RDM, FI_MSG and FI_ORDER_SAS; available: %s",
                           cfg->provider, avail);
        goto out;
    }
    *info_p = btl_ofi_lib.dupinfo(pick);
    if (*info_p == NULL) {
        svc->log_error("btl ofi: out of memory");
        st = COMPI_ERR_NO_MEMORY;
        goto out;
    }
    st = COMPI_OK;
out:
    if (list != NULL)
        btl_ofi_lib.freeinfo(list);
    btl_ofi_lib.freeinfo(hints);
    return st;
}

/* ---- opening ------------------------------------------------------------------------ */

static compi_status_t fail(btl_ofi_state_t *st, const char *what, int rc)
{
    st->svc->log_error("btl ofi: %s (provider %s): %s", what, st->info->fabric_attr->prov_name,
                       btl_ofi_lib.strerror(-rc));
    btl_ofi_close_objects(st);
    return COMPI_ERR_IO;
}

static compi_status_t alloc_buffers(btl_ofi_state_t *st, const ofi_config_t *cfg)
{
    size_t head = (sizeof(ofi_buf_t) + 15) & ~(size_t)15;
    size_t raw = head + sizeof(ofi_wire_hdr_t) + cfg->max_frag;

    st->stride = (raw + OFI_BUF_ALIGN - 1) & ~(size_t)(OFI_BUF_ALIGN - 1);
    st->n_tx = cfg->n_tx;
    st->n_rx = cfg->n_rx;
    if (posix_memalign((void **)&st->tx_mem, 4096, st->stride * (size_t)st->n_tx) != 0)
        st->tx_mem = NULL;
    if (posix_memalign((void **)&st->rx_mem, 4096, st->stride * (size_t)st->n_rx) != 0)
        st->rx_mem = NULL;
    if (st->tx_mem == NULL || st->rx_mem == NULL) {
        st->svc->log_error("btl ofi: out of memory for %d + %d buffers of %zu bytes", st->n_tx,
                           st->n_rx, st->stride);
        return COMPI_ERR_NO_MEMORY;
    }
    memset(st->tx_mem, 0, st->stride * (size_t)st->n_tx);
    memset(st->rx_mem, 0, st->stride * (size_t)st->n_rx);
    st->tx_free = NULL;
    for (int i = st->n_tx - 1; i >= 0; i--) {
        ofi_buf_t *b = (ofi_buf_t *)(st->tx_mem + (size_t)i * st->stride);
        b->next = st->tx_free;
        st->tx_free = b;
    }
    for (int i = 0; i < st->n_rx; i++)
        ((ofi_buf_t *)(st->rx_mem + (size_t)i * st->stride))->is_rx = 1;
    return COMPI_OK;
}

static int reg_local(btl_ofi_state_t *st, void *mem, size_t len, uint64_t access,
                     struct fid_mr **mr_p, void **desc_p)
{
    int rc = fi_mr_reg(st->domain, mem, len, access, 0, 0, 0, mr_p, NULL);
    if (rc == 0)
        *desc_p = fi_mr_desc(*mr_p);
    return rc;
}

compi_status_t btl_ofi_open_objects(btl_ofi_state_t *st, const ofi_config_t *cfg)
{
    struct fi_info *info = st->info;
    int rc;

    rc = btl_ofi_lib.fabric(info->fabric_attr, &st->fabric, NULL);
    if (rc != 0)
        return fail(st, "fi_fabric", rc);
    rc = fi_domain(st->fabric, info, &st->domain, NULL);
    if (rc != 0)
        return fail(st, "fi_domain", rc);

    /* a wait object lets an idle rank sleep in fi_cq_sread; without one it polls */
    struct fi_cq_attr cq_attr = {
        .size = (size_t)(cfg->n_tx + cfg->n_rx) * 2,
        .format = FI_CQ_FORMAT_MSG,
        .wait_obj = FI_WAIT_UNSPEC,
    };
    rc = fi_cq_open(st->domain, &cq_attr, &st->cq, NULL);
    st->can_wait = rc == 0;
    if (rc != 0) {
        cq_attr.wait_obj = FI_WAIT_NONE;
        rc = fi_cq_open(st->domain, &cq_attr, &st->cq, NULL);
    }
    if (rc != 0)
        return fail(st, "fi_cq_open", rc);

    struct fi_av_attr av_attr = {
        .type = info->domain_attr->av_type,
        .count = (size_t)st->svc->world_size,
    };
    rc = fi_av_open(st->domain, &av_attr, &st->av, NULL);
    if (rc != 0)
        return fail(st, "fi_av_open", rc);

    rc = fi_endpoint(st->domain, info, &st->ep, NULL);
    if (rc != 0)
        return fail(st, "fi_endpoint", rc);
    rc = fi_ep_bind(st->ep, &st->cq->fid, FI_TRANSMIT | FI_RECV);
    if (rc != 0)
        return fail(st, "binding the completion queue", rc);
    rc = fi_ep_bind(st->ep, &st->av->fid, 0);
    if (rc != 0)
        return fail(st, "binding the address vector", rc);
    rc = fi_enable(st->ep);
    if (rc != 0)
        return fail(st, "fi_enable", rc);
    st->name_len = sizeof(st->name);
    rc = fi_getname(&st->ep->fid, st->name, &st->name_len);
    if (rc != 0)
        return fail(st, "fi_getname", rc);

    if (alloc_buffers(st, cfg) != COMPI_OK) {
        btl_ofi_close_objects(st);
        return COMPI_ERR_NO_MEMORY;
    }
    if ((info->domain_attr->mr_mode & FI_MR_LOCAL) != 0) {
        rc = reg_local(st, st->tx_mem, st->stride * (size_t)st->n_tx, FI_SEND, &st->tx_mr,
                       &st->tx_desc);
        if (rc == 0)
            rc = reg_local(st, st->rx_mem, st->stride * (size_t)st->n_rx, FI_RECV, &st->rx_mr,
                           &st->rx_desc);
        if (rc != 0)
            return fail(st, "registering the fragment buffers", rc);
    }
    st->inject_size = info->tx_attr->inject_size;

    size_t rx_len = st->stride - ((sizeof(ofi_buf_t) + 15) & ~(size_t)15);
    for (int i = 0; i < st->n_rx; i++) {
        ofi_buf_t *b = (ofi_buf_t *)(st->rx_mem + (size_t)i * st->stride);
        rc = (int)fi_recv(st->ep, ofi_buf_wire(b), rx_len, st->rx_desc, FI_ADDR_UNSPEC, &b->ctx);
        if (rc != 0)
            return fail(st, "posting the receive buffers", rc);
    }
    return COMPI_OK;
}

static void close_fid(btl_ofi_state_t *st, struct fid *f, const char *what)
{
    int rc = fi_close(f);
    if (rc != 0)
        st->svc->log_verbose(1, "btl ofi: closing the %s: %s", what, btl_ofi_lib.strerror(-rc));
}

void btl_ofi_close_objects(btl_ofi_state_t *st)
{
    /* the endpoint first: it refers to the CQ and the AV, and its posted receives to the
       buffers and their registration */
    if (st->ep != NULL)
        close_fid(st, &st->ep->fid, "endpoint");
    if (st->tx_mr != NULL)
        close_fid(st, &st->tx_mr->fid, "send buffers' registration");
    if (st->rx_mr != NULL)
        close_fid(st, &st->rx_mr->fid, "receive buffers' registration");
    if (st->av != NULL)
        close_fid(st, &st->av->fid, "address vector");
    if (st->cq != NULL)
        close_fid(st, &st->cq->fid, "completion queue");
    if (st->domain != NULL)
        close_fid(st, &st->domain->fid, "domain");
    if (st->fabric != NULL)
        close_fid(st, &st->fabric->fid, "fabric");
    st->ep = NULL;
    st->tx_mr = st->rx_mr = NULL;
    st->tx_desc = st->rx_desc = NULL;
    st->av = NULL;
    st->cq = NULL;
    st->domain = NULL;
    st->fabric = NULL;
    free(st->tx_mem);
    free(st->rx_mem);
    st->tx_mem = st->rx_mem = NULL;
    st->tx_free = NULL;
    st->rx_repost = NULL;
}
