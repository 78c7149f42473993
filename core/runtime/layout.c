/*
 * layout.c -- the layout syntax of compi-tree, mpirun --layout and rte_layout (layout.h).
 *
 * Entries are parsed and placed one at a time, so the first bad entry is the one named:
 * its syntax, then whether it fits (the rank limit, its subnet's room after the entries
 * before it), then whether its addresses are already taken by an earlier entry of an
 * overlapping subnet.  Entries of one subnet continue each other and never collide, so
 * the check compares address ranges of earlier entries, not addresses one by one.
 */
#include "core/runtime/layout.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static compi_status_t __attribute__((format(printf, 3, 4)))
layout__fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return COMPI_ERR_INVALID_PARAM;
}

static int layout__digits(const char *s, size_t n)
{
    if (n == 0) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
    }
    return 1;
}

static int layout__host_char(char c)
{
    return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.';
}

static void layout__ipv4(uint32_t a, char *buf, size_t len)
{
    snprintf(buf, len, "%u.%u.%u.%u", (a >> 24) & 255, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

/* where a subnet's addresses start and how many it holds (see layout.h) */
static uint32_t layout__first(uint32_t network, int prefix)
{
    return prefix >= 31 ? network : network + 1;
}

static uint64_t layout__room(int prefix)
{
    uint64_t all = (uint64_t)1 << (32 - prefix);
    return prefix >= 31 ? all : all - 2;
}

/* "A.B.C.D/NN" -> network (host bits cleared) and prefix; -1 when it is not that */
static int layout__cidr(const char *s, size_t n, uint32_t *network, int *prefix)
{
    char addr[INET_ADDRSTRLEN];
    const char *slash = memchr(s, '/', n);
    struct in_addr in;

    if (slash == NULL || (size_t)(slash - s) >= sizeof(addr)) {
        return -1;
    }
    size_t plen = n - (size_t)(slash - s) - 1;
    if (!layout__digits(slash + 1, plen) || plen > 2) {
        return -1;
    }
    int p = atoi(slash + 1);
    memcpy(addr, s, (size_t)(slash - s));
    addr[slash - s] = '\0';
    if (p > 32 || inet_pton(AF_INET, addr, &in) != 1) {
        return -1;
    }
    uint32_t mask = p == 0 ? 0 : ~(uint32_t)0 << (32 - p);
    *network = ntohl(in.s_addr) & mask;
    *prefix = p;
    return 0;
}

/* one entry of the text, trimmed: [*start, *start + *n) */
typedef struct layout_span {
    const char *start;
    size_t n;
} layout_span_t;

/* Entry k (1-based) of the layout: its syntax, into e (all but first and addr0). */
static compi_status_t layout__entry(layout_span_t t, int k, rte_layout_entry_t *e,
                                    unsigned long long *count_p, char *err, size_t len)
{
    const char *s = t.start;
    size_t n = t.n;
    int en = n > 200 ? 200 : (int)n; /* how much of the entry a message quotes */

    if (n == 0) {
        return layout__fail(err, len, "bad layout: entry %d is empty (expected %s)", k,
                            RTE_LAYOUT_SYNTAX);
    }
    const char *at = memchr(s, '@', n);
    size_t head = at != NULL ? (size_t)(at - s) : n;
    const char *colon = memchr(s, ':', head);
    if (colon == NULL) {
        return layout__fail(err, len,
                            "bad layout entry '%.*s': missing ':COUNT' after the host name "
                            "(expected %s)",
                            en, s, RTE_LAYOUT_SYNTAX);
    }
    size_t nlen = (size_t)(colon - s), clen = head - nlen - 1;
    const char *count = colon + 1;
    if (nlen == 0) {
        return layout__fail(err, len, "bad layout entry '%.*s': missing host name before ':'",
                            en, s);
    }
    for (size_t i = 0; i < nlen; i++) {
        if (!layout__host_char(s[i])) {
            return layout__fail(err, len,
                                "bad layout entry '%.*s': host name '%.*s' may hold only "
                                "letters, digits, '-', '_' and '.'",
                                en, s, (int)(nlen > 100 ? 100 : nlen), s);
        }
    }
    if (nlen >= sizeof(e->name)) {
        return layout__fail(err, len, "bad layout entry '%.*s': host name longer than %d bytes",
                            en, s, (int)sizeof(e->name) - 1);
    }
    if (!layout__digits(count, clen)) {
        return layout__fail(err, len, "bad layout entry '%.*s': rank count '%.*s' is not a number",
                            en, s, (int)(clen > 40 ? 40 : clen), count);
    }
    unsigned long long c = 0;
    for (size_t i = 0; i < clen; i++) {
        c = c > 1ull << 40 ? c : c * 10 + (unsigned)(count[i] - '0'); /* saturates */
    }
    if (c == 0) {
        return layout__fail(err, len,
                            "bad layout entry '%.*s': zero ranks (the count must be at least 1)",
                            en, s);
    }
    memcpy(e->name, s, nlen);
    e->name[nlen] = '\0';
    *count_p = c;
    e->prefix = -1;
    e->network = 0;
    if (at != NULL) {
        size_t slen = n - head - 1;
        if (layout__cidr(at + 1, slen, &e->network, &e->prefix) != 0) {
            return layout__fail(err, len,
                                "bad layout entry '%.*s': bad subnet '%.*s' (expected "
                                "A.B.C.D/NN, NN from 0 to 32)",
                                en, s, (int)(slen > 60 ? 60 : slen), at + 1);
        }
    }
    return COMPI_OK;
}

/* Places entry j after the ones before it: its first rank, its first address. */
static compi_status_t layout__place(rte_layout_t *l, const layout_span_t *spans, int j,
                                    unsigned long long count, int max_ranks, char *err,
                                    size_t len)
{
    rte_layout_entry_t *e = &l->entries[j];
    int en = spans[j].n > 200 ? 200 : (int)spans[j].n;
    const char *s = spans[j].start;
    char net[32], a[20];

    if ((unsigned long long)l->size + count > (unsigned long long)max_ranks) {
        return layout__fail(err, len,
                            "bad layout: more than %d ranks (entry '%.*s' ends at rank %llu)",
                            max_ranks, en, s, (unsigned long long)l->size + count - 1);
    }
    e->first = l->size;
    e->count = (int)count;
    if (e->prefix >= 0) {
        /* addresses that earlier entries of the same subnet took */
        uint64_t taken = 0;
        for (int i = 0; i < j; i++) {
            if (l->entries[i].prefix == e->prefix && l->entries[i].network == e->network) {
                taken += (uint64_t)l->entries[i].count;
            }
        }
        layout__ipv4(e->network, a, sizeof(a));
        snprintf(net, sizeof(net), "%s/%d", a, e->prefix);
        if (taken + count > layout__room(e->prefix)) {
            char more[64] = "";
            if (taken > 0) {
                snprintf(more, sizeof(more), ", %llu taken by earlier entries",
                         (unsigned long long)taken);
            }
            return layout__fail(err, len,
                                "bad layout entry '%.*s': %llu ranks do not fit in %s (%llu "
                                "addresses%s)",
                                en, s, count, net, (unsigned long long)layout__room(e->prefix),
                                more);
        }
        e->addr0 = layout__first(e->network, e->prefix) + (uint32_t)taken;
        /* the lowest rank of this entry whose address an earlier entry holds */
        uint64_t lo = e->addr0, hi = lo + count - 1, best = UINT64_MAX;
        int owner = -1, owner_entry = -1;
        for (int i = 0; i < j; i++) {
            const rte_layout_entry_t *o = &l->entries[i];
            if (o->prefix < 0) {
                continue;
            }
            uint64_t olo = o->addr0, ohi = olo + (uint64_t)o->count - 1;
            uint64_t x = lo > olo ? lo : olo;
            if (x <= hi && x <= ohi && x < best) {
                best = x;
                owner = o->first + (int)(x - olo);
                owner_entry = i;
            }
        }
        if (owner >= 0) {
            layout__ipv4((uint32_t)best, a, sizeof(a));
            return layout__fail(err, len,
                                "bad layout entry '%.*s': address %s of rank %d is already rank "
                                "%d's (entry '%.*s'): the subnets overlap",
                                en, s, a, e->first + (int)(best - lo), owner,
                                spans[owner_entry].n > 200 ? 200 : (int)spans[owner_entry].n,
                                spans[owner_entry].start);
        }
    }
    l->size += (int)count;
    return COMPI_OK;
}

compi_status_t rte_layout_parse(const char *text, int max_ranks, rte_layout_t **l_p, char *err,
                                size_t errlen)
{
    rte_layout_t *l = calloc(1, sizeof(*l));
    layout_span_t *spans = NULL;
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    int n = 1;

    *l_p = NULL;
    for (const char *p = text; *p; p++) {
        n += *p == ',';
    }
    if (l == NULL || (l->entries = calloc((size_t)n, sizeof(*l->entries))) == NULL ||
        (spans = calloc((size_t)n, sizeof(*spans))) == NULL) {
        snprintf(err, errlen, "out of memory for a layout of %d entries", n);
        goto err;
    }
    const char *p = text;
    for (int k = 0; k < n; k++) {
        const char *comma = strchr(p, ',');
        const char *end = comma != NULL ? comma : p + strlen(p);
        unsigned long long count = 0;

        while (p < end && isspace((unsigned char)*p)) {
            p++;
        }
        while (end > p && isspace((unsigned char)end[-1])) {
            end--;
        }
        spans[k].start = p;
        spans[k].n = (size_t)(end - p);
        if ((st = layout__entry(spans[k], k + 1, &l->entries[k], &count, err, errlen)) !=
                COMPI_OK ||
            (st = layout__place(l, spans, k, count, max_ranks, err, errlen)) != COMPI_OK) {
            goto err;
        }
        l->nentries = k + 1;
        p = comma != NULL ? comma + 1 : end;
    }
    free(spans);
    *l_p = l;
    return COMPI_OK;
err:
    free(spans);
    rte_layout_free(l);
    return st;
}

void rte_layout_free(rte_layout_t *l)
{
    if (l != NULL) {
        free(l->entries);
        free(l);
    }
}

const rte_layout_entry_t *rte_layout_entry_of(const rte_layout_t *l, int r)
{
    int lo = 0, hi = l->nentries - 1;

    while (lo < hi) { /* the last entry whose first rank is <= r */
        int mid = (lo + hi + 1) / 2;
        if (l->entries[mid].first <= r) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return &l->entries[lo];
}

int rte_layout_addr(const rte_layout_t *l, int r, char *buf, size_t len)
{
    const rte_layout_entry_t *e = rte_layout_entry_of(l, r);
    char a[20];

    if (e->prefix < 0) {
        return 0;
    }
    layout__ipv4(e->addr0 + (uint32_t)(r - e->first), a, sizeof(a));
    snprintf(buf, len, "%s/%d", a, e->prefix);
    return 1;
}

int rte_layout_subnet(const rte_layout_t *l, int r, char *buf, size_t len)
{
    const rte_layout_entry_t *e = rte_layout_entry_of(l, r);
    char a[20];

    if (e->prefix < 0) {
        return 0;
    }
    layout__ipv4(e->network, a, sizeof(a));
    snprintf(buf, len, "%s/%d", a, e->prefix);
    return 1;
}
