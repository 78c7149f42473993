/*
 * hosts.c -- --host, --hostfile and --map-by: the hosts of a job and the host of each rank.
 *
 *   --host a:4,b:4      host a with 4 slots, host b with 4
 *   --host a,a,b        each occurrence is one slot (Open MPI style): a:2, b:1
 *   --hostfile FILE     one host per line: "name slots=N" (Open MPI), "name:N" (MPICH) or
 *                       "name" (one slot); '#' starts a comment; blank lines are skipped;
 *                       lines of at most HOSTS_LINE_MAX - 1 bytes, HOSTS_FILE_MAX in all;
 *                       a FIFO, a socket or a directory is refused (reading one could wait
 *                       before --timeout applies)
 *
 * A name given more than once is one host whose slots add up, placed where it was first
 * named; several --host and --hostfile options add up the same way.  Ranks are then dealt over the
 * slots:
 *
 *   --map-by slot  (default)  a:2,b:2 -> a a b b    fill each host's slots in order
 *   --map-by node             a:2,b:2 -> a b a b    one rank per host, round-robin,
 *                                                   skipping hosts whose slots are full
 *
 * Past the last slot (np > slots, allowed by --oversubscribe) the same order starts over:
 * rank i goes where rank i mod slots went.
 *
 * A host is this machine when its name is gethostname()'s, "localhost" or "127.0.0.1";
 * its ranks are started directly, the others through the launch agent (agent.c).
 */
#include "core/runtime/launcher/launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the most slots one host, or all of them, may have (also mpirun's -np limit) */
#define HOSTS_SLOTS_MAX (1 << 20)
/* a host file's longest line (newline excluded, plus one) and largest size */
#define HOSTS_LINE_MAX 1024
#define HOSTS_FILE_MAX (1 << 20)

const char *map_policy_name(map_policy_t p)
{
    return p == MAP_NODE ? "node" : "slot";
}

int map_policy_parse(const char *s, map_policy_t *p)
{
    if (strcmp(s, "slot") == 0) {
        *p = MAP_SLOT;
        return 0;
    }
    if (strcmp(s, "node") == 0) {
        *p = MAP_NODE;
        return 0;
    }
    return -1;
}

/*
 * A name the launch agent can take as one argument: letters, digits, '.', '-', '_' and
 * '@' (ssh's user@host), not starting with '-' (it would read as an option).
 */
static int hosts__name_ok(const char *name, size_t len)
{
    if (len == 0 || name[0] == '-')
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];

        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == '@'))
            return 0;
    }
    return 1;
}

/* "4" -> 4; -1 unless a whole positive number within the limit */
static int hosts__slots(const char *s, size_t len)
{
    long v = 0;

    if (len == 0 || len > 8)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v >= 1 && v <= HOSTS_SLOTS_MAX ? (int)v : -1;
}

static size_t hosts__hash(const char *name, size_t len)
{
    size_t x = 14695981039346656037u;
    for (size_t i = 0; i < len; i++)
        x = (x ^ (unsigned char)name[i]) * 1099511628211u;
    return x;
}

/* the index slot of `name`: where it is, or the empty slot where it would go */
static int *hosts__slot(const mpirun_hosts_t *h, const char *name, size_t len)
{
    size_t mask = (size_t)h->nindex - 1, k = hosts__hash(name, len) & mask;
    for (;; k = (k + 1) & mask) {
        int i = h->index[k] - 1;
        if (i < 0 || (strlen(h->host[i].name) == len && memcmp(h->host[i].name, name, len) == 0))
            return &h->index[k];
    }
}

/* room for one more host in host[] and the index (both doubled when full) */
static int hosts__grow(mpirun_hosts_t *h)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 16;
        mpirun_host_t *grown = realloc(h->host, (size_t)cap * sizeof(*grown));
        if (grown == NULL)
            return -1;
        h->host = grown;
        h->cap = cap;
    }
    if (2 * (h->n + 1) > h->nindex) {
        int nindex = h->nindex ? 2 * h->nindex : 32;
        int *index = calloc((size_t)nindex, sizeof(*index)), *old = h->index;
        if (index == NULL)
            return -1;
        h->index = index;
        h->nindex = nindex;
        for (int i = 0; i < h->n; i++)
            *hosts__slot(h, h->host[i].name, strlen(h->host[i].name)) = i + 1;
        free(old);
    }
    return 0;
}

static compi_status_t hosts__add(mpirun_hosts_t *h, const char *name, size_t len, int slots,
                                 const char *where, const char *prog)
{
    int *at;

    if (slots > HOSTS_SLOTS_MAX - h->total_slots) {
        fprintf(stderr, "%s: %s: more than %d slots in all\n", prog, where, HOSTS_SLOTS_MAX);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (hosts__grow(h) != 0)
        goto nomem;
    at = hosts__slot(h, name, len);
    h->total_slots += slots;
    if (*at > 0) {
        h->host[*at - 1].slots += slots;
        return COMPI_OK;
    }
    h->host[h->n] = (mpirun_host_t){.slots = slots};
    h->host[h->n].name = strndup(name, len);
    if (h->host[h->n].name == NULL) {
        h->total_slots -= slots;
        goto nomem;
    }
    *at = ++h->n;
    return COMPI_OK;

nomem:
    fprintf(stderr, "%s: out of memory\n", prog);
    return COMPI_ERR_NO_MEMORY;
}

compi_status_t hosts_add_list(mpirun_hosts_t *h, const char *spec, const char *prog)
{
    const char *p = spec;

    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        size_t nlen = colon != NULL ? (size_t)(colon - p) : len;
        int slots = 1;
        compi_status_t st;

        if (colon != NULL) {
            slots = hosts__slots(colon + 1, len - nlen - 1);
            if (slots < 0) {
                fprintf(stderr,
                        "%s: --host '%s': bad slot count '%.*s' in '%.*s' "
                        "(a whole number from 1 to %d)\n",
                        prog, spec, (int)(len - nlen - 1), colon + 1, (int)len, p, HOSTS_SLOTS_MAX);
                return COMPI_ERR_INVALID_PARAM;
            }
        }
        if (!hosts__name_ok(p, nlen)) {
            fprintf(stderr,
                    "%s: --host '%s': bad host name '%.*s' (letters, digits, '.', '-', '_', "
                    "'@'; entries are NAME or NAME:SLOTS, separated by commas)\n",
                    prog, spec, (int)nlen, p);
            return COMPI_ERR_INVALID_PARAM;
        }
        st = hosts__add(h, p, nlen, slots, "--host", prog);
        if (st != COMPI_OK)
            return st;
        if (end == NULL)
            return COMPI_OK;
        p = end + 1;
    }
}

/* the next blank-separated word of *p, or NULL at the end of the line */
static const char *hosts__word(const char **p, size_t *len)
{
    const char *s = *p, *w;

    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    if (*s == '\0')
        return NULL;
    w = s;
    while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r')
        s++;
    *len = (size_t)(s - w);
    *p = s;
    return w;
}

/* one line of a host file, comment already cut off */
static compi_status_t hosts__file_line(mpirun_hosts_t *h, const char *line, const char *where,
                                       const char *prog)
{
    const char *p = line, *name, *w, *colon;
    size_t nlen, wlen;
    int slots = 1, have_slots = 0;

    name = hosts__word(&p, &nlen);
    if (name == NULL)
        return COMPI_OK; /* blank */
    colon = memchr(name, ':', nlen);
    if (colon != NULL) {
        slots = hosts__slots(colon + 1, nlen - (size_t)(colon - name) - 1);
        if (slots < 0) {
            fprintf(stderr, "%s: %s: bad slot count '%.*s' (a whole number from 1 to %d)\n", prog,
                    where, (int)(nlen - (size_t)(colon - name) - 1), colon + 1, HOSTS_SLOTS_MAX);
            return COMPI_ERR_INVALID_PARAM;
        }
        nlen = (size_t)(colon - name);
        have_slots = 1;
    }
    if (!hosts__name_ok(name, nlen)) {
        fprintf(stderr, "%s: %s: bad host name '%.*s' (letters, digits, '.', '-', '_', '@')\n",
                prog, where, (int)nlen, name);
        return COMPI_ERR_INVALID_PARAM;
    }
    while ((w = hosts__word(&p, &wlen)) != NULL) {
        if (wlen > 6 && strncmp(w, "slots=", 6) == 0 && !have_slots) {
            slots = hosts__slots(w + 6, wlen - 6);
            if (slots < 0) {
                fprintf(stderr, "%s: %s: bad slot count '%.*s' (a whole number from 1 to %d)\n",
                        prog, where, (int)(wlen - 6), w + 6, HOSTS_SLOTS_MAX);
                return COMPI_ERR_INVALID_PARAM;
            }
            have_slots = 1;
            continue;
        }
        fprintf(stderr,
                "%s: %s: unexpected '%.*s' after host '%.*s' (lines are 'NAME slots=N', "
                "'NAME:N' or 'NAME')\n",
                prog, where, (int)wlen, w, (int)nlen, name);
        return COMPI_ERR_INVALID_PARAM;
    }
    return hosts__add(h, name, nlen, slots, where, prog);
}

/*
 * One line into `line` (HOSTS_LINE_MAX bytes), without its newline: 1, or 0 at end of
 * file, or -1 after printing what is wrong (a line too long, a NUL byte, a file too big):
 * whatever the file is (/dev/zero, a FIFO that never ends), reading it stays bounded.
 */
static int hosts__read_line(FILE *f, char *line, size_t *total, const char *where,
                            const char *prog)
{
    size_t n = 0;
    int c;

    while ((c = getc(f)) != EOF && c != '\n') {
        if (c == '\0') {
            fprintf(stderr, "%s: %s: a NUL byte: this is not a host file\n", prog, where);
            return -1;
        }
        if (n + 1 >= HOSTS_LINE_MAX) {
            fprintf(stderr, "%s: %s: line longer than %d bytes (the limit of a host file line)\n",
                    prog, where, HOSTS_LINE_MAX - 1);
            return -1;
        }
        if (++*total > HOSTS_FILE_MAX) {
            fprintf(stderr, "%s: %s: host file larger than %d bytes (the limit)\n", prog, where,
                    HOSTS_FILE_MAX);
            return -1;
        }
        line[n++] = (char)c;
    }
    line[n] = '\0';
    return c != EOF || n > 0;
}

compi_status_t hosts_add_file(mpirun_hosts_t *h, const char *path, const char *prog)
{
    compi_status_t st = COMPI_OK;
    char line[HOSTS_LINE_MAX], where[1100];
    size_t total = 0;
    int lineno = 0, got;
    struct stat sb;
    FILE *f;

    /* O_NONBLOCK: opening a FIFO would wait for a writer, and reading a terminal for a
       line, before --timeout is armed.  A FIFO, a socket or a directory is refused; a
       character device is read without waiting, through the same bounds as a file
       (/dev/null is empty, /dev/zero a NUL byte); a regular file's size says at once
       whether it is too big */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot open host file '%s': %s\n", prog, path, strerror(errno));
        return COMPI_ERR_IO;
    }
    if (fstat(fd, &sb) != 0 || !(S_ISREG(sb.st_mode) || S_ISCHR(sb.st_mode))) {
        fprintf(stderr,
                "%s: host file '%s' is not a regular file (a FIFO, a socket or a "
                "directory): give the hosts in a file\n",
                prog, path);
        close(fd);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (S_ISREG(sb.st_mode) && sb.st_size > HOSTS_FILE_MAX) {
        fprintf(stderr, "%s: %s: host file larger than %d bytes (the limit)\n", prog, path,
                HOSTS_FILE_MAX);
        close(fd);
        return COMPI_ERR_INVALID_PARAM;
    }
    f = fdopen(fd, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot read host file '%s': %s\n", prog, path, strerror(errno));
        close(fd);
        return COMPI_ERR_IO;
    }
    for (;;) {
        char *hash;

        snprintf(where, sizeof(where), "%.1024s:%d", path, ++lineno);
        got = hosts__read_line(f, line, &total, where, prog);
        if (got <= 0)
            break;
        hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        st = hosts__file_line(h, line, where, prog);
        if (st != COMPI_OK)
            goto out;
    }
    if (got < 0) {
        st = COMPI_ERR_INVALID_PARAM;
    } else if (ferror(f)) {
        fprintf(stderr, "%s: cannot read host file '%s': %s\n", prog, path, strerror(errno));
        st = COMPI_ERR_IO;
    }
out:
    fclose(f);
    return st;
}

void hosts_finish(mpirun_hosts_t *h)
{
    char self[256] = "";
    int nodes = 0, local_node = -1;

    if (gethostname(self, sizeof(self) - 1) != 0)
        self[0] = '\0';
    for (int i = 0; i < h->n; i++) {
        mpirun_host_t *x = &h->host[i];

        x->local = strcmp(x->name, "localhost") == 0 || strcmp(x->name, "127.0.0.1") == 0 ||
                   (self[0] != '\0' && strcmp(x->name, self) == 0);
        if (x->local && local_node >= 0) {
            x->node = local_node;
            continue;
        }
        x->node = nodes++;
        if (x->local)
            local_node = x->node;
    }
}

int hosts_total_slots(const mpirun_hosts_t *h)
{
    return h->total_slots;
}

compi_status_t hosts_map(const mpirun_hosts_t *h, int np, map_policy_t p, int *host_of)
{
    int total = hosts_total_slots(h), k = 0, most = 0;
    int *order;

    if (h->n == 0 || total == 0)
        return COMPI_ERR_INVALID_PARAM;
    /* the host of each slot, in the order ranks take them */
    order = malloc((size_t)total * sizeof(*order));
    if (order == NULL)
        return COMPI_ERR_NO_MEMORY;
    for (int i = 0; i < h->n; i++)
        most = h->host[i].slots > most ? h->host[i].slots : most;
    if (p == MAP_SLOT) {
        for (int i = 0; i < h->n; i++)
            for (int s = 0; s < h->host[i].slots; s++)
                order[k++] = i;
    } else {
        for (int s = 0; s < most; s++)
            for (int i = 0; i < h->n; i++)
                if (s < h->host[i].slots)
                    order[k++] = i;
    }
    for (int r = 0; r < np; r++)
        host_of[r] = order[r % total];
    free(order);
    return COMPI_OK;
}

void hosts_free(mpirun_hosts_t *h)
{
    for (int i = 0; i < h->n; i++)
        free(h->host[i].name);
    free(h->host);
    free(h->index);
    *h = (mpirun_hosts_t){0};
}
