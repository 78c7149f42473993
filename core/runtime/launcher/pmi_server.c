/*
 * pmi_server.c -- mpirun's side of the PMI-1 wire protocol ("simple PMI"), with the reply
 * formats of MPICH's Hydra so that MPICH-built programs run under our mpirun too.
 *
 *   init               -> cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
 *   get_maxes          -> cmd=maxes kvsname_max=.. keylen_max=.. vallen_max=.. rc=0
 *   get_appnum         -> cmd=appnum appnum=0
 *   get_my_kvsname     -> cmd=my_kvsname kvsname=<jobid>
 *   get_universe_size  -> cmd=universe_size size=N
 *   put                -> cmd=put_result rc=0 msg=success
 *   get                -> cmd=get_result rc=0 msg=success value=V
 *                         (missing: rc=-1 msg=key_K_not_found value=unknown)
 *   barrier_in         -> cmd=barrier_out to every rank once all N have come in
 *   finalize           -> cmd=finalize_ack
 *   abort              -> no reply: the job is taken down
 *
 * compi's library also asks for MPI_Comm_spawn (a request of several lines, then one
 * reply; text fields in hex, pmi_wire_hex_encode):
 *
 *   spawn_cmd maxprocs=M appnum=A argc=K arg0=HEX .. arg<K-1>=HEX [wdir=HEX]   (no reply)
 *   spawn_go parent=KEY -> cmd=spawn_result rc=0 base=B size=N
 *                          (or rc=-1 why=HEX: nothing was started)
 *   fetch_add key=K     -> cmd=fetch_add_result rc=0 value=N   (K's number before, 0 when
 *                          new; K holds N + 1 after: MPI_Comm_accept / connect count with it)
 *
 * The processes spawned form a sub-job (launcher.h): barrier_in waits for the ranks of the
 * caller's sub-job only, get_my_kvsname answers the sub-job's name, and they share the one
 * key-value space (the library names its keys by global id).
 *
 * Remote ranks (pmi_tcp.c) first say which rank they are, as Hydra's clients do:
 *
 *   initack pmiid=R    -> cmd=initack, cmd=set size=N, cmd=set rank=R, cmd=set debug=0
 *
 * The job has a single key-value space (its name is the jobid); a put or get naming
 * another space is served from it all the same.  Keys are hashed into a fixed bucket
 * array: a job puts a few keys per rank, so chains stay short.  Each rank may add at most
 * PMI_KVS_KEYS_PER_RANK keys (values are at most PMI_WIRE_VALLEN_MAX bytes): a put past
 * that is refused with msg=kvs_quota_of_N_keys_per_rank and mpirun says so once.
 *
 * No rank can hold mpirun: replies are written without blocking, what the socket does not
 * take waits in the rank's own buffer (written when poll says POLLOUT), and a rank that
 * lets more than PMI_OUT_MAX bytes of replies pile up is cut off from PMI with a message
 * naming it.  One turn of the event loop answers at most PMI_LINES_PER_TURN lines of a
 * rank; more lines already read wait for the next turn, and nothing more is read from that
 * rank until they are answered.  Text from ranks is printed with control characters
 * escaped (launcher_escape).
 */
#include "core/runtime/launcher/launcher.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define KVS_BUCKETS 4096

typedef struct kvs_entry {
    struct kvs_entry *next;
    char *key;
    char *value;
} kvs_entry_t;

struct pmi_kvs {
    kvs_entry_t *bucket[KVS_BUCKETS];
    int *nkeys; /* keys each rank added */
    int *told;  /* the rank was told about its quota */
};

static unsigned kvs_hash(const char *s)
{
    unsigned h = 2166136261u; /* FNV-1a */

    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h % KVS_BUCKETS;
}

static kvs_entry_t *kvs_find(pmi_kvs_t *kvs, const char *key)
{
    for (kvs_entry_t *e = kvs->bucket[kvs_hash(key)]; e != NULL; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

/* a later put of the same key replaces the value; owner -1: mpirun's own key */
static compi_status_t kvs_put(pmi_kvs_t *kvs, const char *key, const char *value, int owner)
{
    kvs_entry_t *e = kvs_find(kvs, key);
    char *v;

    if (e == NULL && owner >= 0 && kvs->nkeys[owner] >= PMI_KVS_KEYS_PER_RANK)
        return COMPI_ERR_NO_RESOURCE;
    v = strdup(value);
    if (v == NULL)
        return COMPI_ERR_NO_MEMORY;
    if (e == NULL) {
        unsigned h = kvs_hash(key);

        e = calloc(1, sizeof(*e));
        if (e == NULL || (e->key = strdup(key)) == NULL) {
            free(e);
            free(v);
            return COMPI_ERR_NO_MEMORY;
        }
        e->next = kvs->bucket[h];
        kvs->bucket[h] = e;
        if (owner >= 0)
            kvs->nkeys[owner]++;
    }
    free(e->value);
    e->value = v;
    return COMPI_OK;
}

/* the machine of rank i (hosts.c numbers them; all on one without --host/--hostfile) */
static int pmi__node_of(const mpirun_job_t *job, int i)
{
    return job->ranks[i].host != NULL ? job->ranks[i].host->node : 0;
}

/* length of the run of ranks from i on the same machine, stopping at upto */
static int pmi__run(const mpirun_job_t *job, int i, int upto)
{
    int j = i;

    while (j < upto && pmi__node_of(job, j) == pmi__node_of(job, i))
        j++;
    return j - i;
}

/*
 * MPICH reads the node layout from PMI_process_mapping: "(vector,(NODE,NODES,PPN),...)",
 * each block giving PPN consecutive ranks to each of NODES machines from NODE on, the
 * whole vector repeated until every rank has a machine.  hosts.c repeats its placement
 * every `total slots' ranks, so the vector describes that many (or np when fewer), and
 * runs of equal length on consecutive machines share a block.  -1 when it does not fit.
 */
static int pmi__process_mapping(const mpirun_job_t *job, char *buf, size_t len)
{
    int upto = job->n, i = 0;
    size_t off;

    if (job->opts->hosts.n > 0 && hosts_total_slots(&job->opts->hosts) < upto)
        upto = hosts_total_slots(&job->opts->hosts);
    off = (size_t)snprintf(buf, len, "(vector");
    while (i < upto && off < len) {
        int node = pmi__node_of(job, i), ppn = pmi__run(job, i, upto), nodes = 1;

        i += ppn;
        while (i < upto && pmi__node_of(job, i) == node + nodes && pmi__run(job, i, upto) == ppn) {
            nodes++;
            i += ppn;
        }
        off += (size_t)snprintf(buf + off, len - off, ",(%d,%d,%d)", node, nodes, ppn);
    }
    if (off < len)
        off += (size_t)snprintf(buf + off, len - off, ")");
    return off < len ? 0 : -1;
}

compi_status_t pmi_server_create(mpirun_job_t *job)
{
    char mapping[PMI_WIRE_VALLEN_MAX];

    job->kvs = calloc(1, sizeof(*job->kvs));
    if (job->kvs == NULL)
        return COMPI_ERR_NO_MEMORY;
    job->kvs->nkeys = calloc((size_t)job->cap, sizeof(int));
    job->kvs->told = calloc((size_t)job->cap, sizeof(int));
    if (job->kvs->nkeys == NULL || job->kvs->told == NULL)
        return COMPI_ERR_NO_MEMORY;
    job->barrier_count = 0;
    /* too many blocks for one value: MPICH then learns the layout its own way */
    if (pmi__process_mapping(job, mapping, sizeof(mapping)) != 0)
        return COMPI_OK;
    return kvs_put(job->kvs, "PMI_process_mapping", mapping, -1);
}

void pmi_server_destroy(mpirun_job_t *job)
{
    if (job->kvs == NULL)
        return;
    for (int b = 0; b < KVS_BUCKETS; b++) {
        kvs_entry_t *e = job->kvs->bucket[b];

        while (e != NULL) {
            kvs_entry_t *next = e->next;

            free(e->key);
            free(e->value);
            free(e);
            e = next;
        }
    }
    free(job->kvs->nkeys);
    free(job->kvs->told);
    free(job->kvs);
    job->kvs = NULL;
}

const char *launcher_escape(const char *s, char *buf, size_t len)
{
    size_t k = 0;

    for (; *s != '\0' && k + 5 < len; s++) {
        unsigned char c = (unsigned char)*s;

        if (c < 0x20 || c >= 0x7f)
            k += (size_t)snprintf(buf + k, len - k, "\\x%02x", c);
        else
            buf[k++] = (char)c;
    }
    if (len > 0)
        buf[k < len ? k : len - 1] = '\0';
    return buf;
}

static void close_pmi(mpirun_rank_t *r)
{
    if (r->pmi_fd >= 0)
        close(r->pmi_fd);
    r->pmi_fd = -1;
    r->olen = 0;
}

/* writes what the socket takes now; a failed write means the rank is gone */
void pmi_server_writable(mpirun_rank_t *r)
{
    size_t done = 0;

    while (done < r->olen && r->pmi_fd >= 0 && !r->out_dead) {
        ssize_t n = send(r->pmi_fd, r->obuf + done, r->olen - done, MSG_NOSIGNAL | MSG_DONTWAIT);

        if (n > 0)
            done += (size_t)n;
        else if (n < 0 && errno == EINTR)
            continue;
        else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        else
            r->out_dead = 1; /* its exit will be judged by the reaper; keep reading it */
    }
    if (r->out_dead)
        done = r->olen;
    memmove(r->obuf, r->obuf + done, r->olen - done);
    r->olen -= done;
}

/* queues a reply and writes what the socket takes; cuts off a rank that does not read */
static void send_line(mpirun_rank_t *r, const char *line, size_t len)
{
    if (r->pmi_fd < 0 || r->out_dead)
        return;
    if (r->olen + len > PMI_OUT_MAX) {
        char who[64];

        snprintf(who, sizeof(who), "rank %d (pid %ld)", r->rank, (long)r->pid);
        fprintf(stderr,
                "mpirun: %s sends PMI requests without reading the replies (more than %d "
                "bytes of replies wait); it is cut off from PMI\n",
                who, PMI_OUT_MAX);
        close_pmi(r);
        return;
    }
    if (r->olen + len > r->ocap) {
        size_t cap = r->ocap ? r->ocap : 4096;
        char *p;

        while (cap < r->olen + len)
            cap *= 2;
        p = realloc(r->obuf, cap);
        if (p == NULL) {
            fprintf(stderr, "mpirun: out of memory for the PMI replies of rank %d\n", r->rank);
            close_pmi(r);
            return;
        }
        r->obuf = p;
        r->ocap = cap;
    }
    memcpy(r->obuf + r->olen, line, len);
    r->olen += len;
    pmi_server_writable(r);
}

#define REPLY(r, ...)                                                                              \
    do {                                                                                           \
        char line_[PMI_WIRE_MAXLINE];                                                              \
        size_t len_;                                                                               \
        if (pmi_wire_format(line_, sizeof(line_), &len_, __VA_ARGS__, NULL) == COMPI_OK)           \
            send_line((r), line_, len_);                                                           \
    } while (0)

static void on_barrier_in(mpirun_job_t *job, mpirun_rank_t *r)
{
    if (r->in_barrier) {
        fprintf(stderr, "mpirun: rank %d entered the PMI barrier twice; ignored\n", r->rank);
        return;
    }
    mpirun_sub_t *sub = &job->subs[r->sub];

    r->in_barrier = 1;
    if (++sub->barrier_count < sub->n)
        return;
    sub->barrier_count = 0;
    for (int i = sub->base; i < sub->base + sub->n; i++) {
        job->ranks[i].in_barrier = 0;
        REPLY(&job->ranks[i], "barrier_out");
    }
}

static void on_abort(mpirun_job_t *job, mpirun_rank_t *r, const pmi_wire_msg_t *msg)
{
    const char *text = pmi_wire_get(msg, "message");
    char why[4 * PMI_WIRE_MAXLINE + 128], safe[4 * PMI_WIRE_MAXLINE];
    int code = 1;

    if (text == NULL)
        text = pmi_wire_get(msg, "error_msg");
    if (text != NULL)
        text = launcher_escape(text, safe, sizeof(safe));
    if (pmi_wire_get_int(msg, "exitcode", &code) != COMPI_OK)
        code = 1;
    /* "line": the message is the rank's line for people (an MPI error's), which the rank
       left to us: said once, as it is, after ours */
    const char *is_line = pmi_wire_get(msg, "line");
    int own_line = is_line != NULL && strcmp(is_line, "1") == 0 && text != NULL && *text;
    snprintf(why, sizeof(why), "rank %d aborted the job with error code %d%s%s", r->rank, code,
             text != NULL && *text ? (own_line ? ":\n" : ": ") : "", text != NULL ? text : "");
    /*
     * mpirun's exit status is a byte: keep the code's low byte as a shell would, but never
     * let an aborted job look successful (MPICH's error codes are often multiples of 256)
     */
    job_terminate(job, (code & 0xff) != 0 ? code & 0xff : 1, why);
    /* nothing more from this rank matters; its exit is part of the abort */
    r->aborted = 1;
}

static void on_get(mpirun_job_t *job, mpirun_rank_t *r, const pmi_wire_msg_t *msg)
{
    const char *key = pmi_wire_get(msg, "key");
    kvs_entry_t *e = key != NULL ? kvs_find(job->kvs, key) : NULL;
    char why[PMI_WIRE_KEYLEN_MAX + 32];

    if (e != NULL) {
        REPLY(r, "get_result", "rc", "0", "msg", "success", "value", e->value);
        return;
    }
    snprintf(why, sizeof(why), "key_%s_not_found", key != NULL ? key : "");
    REPLY(r, "get_result", "rc", "-1", "msg", key != NULL ? why : "missing_key", "value",
          "unknown");
}

static void on_put(mpirun_job_t *job, mpirun_rank_t *r, const pmi_wire_msg_t *msg)
{
    const char *key = pmi_wire_get(msg, "key");
    const char *value = pmi_wire_get(msg, "value");

    if (key == NULL || value == NULL) {
        REPLY(r, "put_result", "rc", "-1", "msg", "key_or_value_missing");
        return;
    }
    if (strlen(key) >= PMI_WIRE_KEYLEN_MAX || strlen(value) >= PMI_WIRE_VALLEN_MAX) {
        char limits[96];

        snprintf(limits, sizeof(limits), "key_or_value_too_long_(keys_up_to_%d_bytes,values_%d)",
                 PMI_WIRE_KEYLEN_MAX - 1, PMI_WIRE_VALLEN_MAX - 1);
        REPLY(r, "put_result", "rc", "-1", "msg", limits);
        return;
    }
    switch (kvs_put(job->kvs, key, value, r->gid)) {
    case COMPI_OK:
        break;
    case COMPI_ERR_NO_RESOURCE: {
        char quota[64];

        snprintf(quota, sizeof(quota), "kvs_quota_of_%d_keys_per_rank", PMI_KVS_KEYS_PER_RANK);
        if (!job->kvs->told[r->gid]++)
            fprintf(stderr,
                    "mpirun: rank %d put more than %d keys into the PMI key-value space (the "
                    "limit per rank); its further new keys are refused\n",
                    r->rank, PMI_KVS_KEYS_PER_RANK);
        REPLY(r, "put_result", "rc", "-1", "msg", quota);
        return;
    }
    default:
        REPLY(r, "put_result", "rc", "-1", "msg", "out_of_memory");
        return;
    }
    REPLY(r, "put_result", "rc", "0", "msg", "success");
}

static void on_fetch_add(mpirun_job_t *job, mpirun_rank_t *r, const pmi_wire_msg_t *msg)
{
    const char *key = pmi_wire_get(msg, "key");
    kvs_entry_t *e = key != NULL ? kvs_find(job->kvs, key) : NULL;
    long old = e != NULL ? strtol(e->value, NULL, 10) : 0;
    char num[32], next[32];

    snprintf(num, sizeof(num), "%ld", old);
    snprintf(next, sizeof(next), "%ld", old + 1);
    if (key == NULL || strlen(key) >= PMI_WIRE_KEYLEN_MAX ||
        kvs_put(job->kvs, key, next, r->gid) != COMPI_OK) {
        REPLY(r, "fetch_add_result", "rc", "-1", "msg", "cannot_add");
        return;
    }
    REPLY(r, "fetch_add_result", "rc", "0", "value", num);
}

/* MPI_Comm_spawn: one command of the request, kept until spawn_go (malformed: dropped,
   and spawn_go says so) */
static void on_spawn_cmd(mpirun_rank_t *r, const pmi_wire_msg_t *msg)
{
    int maxprocs, argc, appnum;
    mpirun_cmd_t *cmds, *c;
    const char *wdir = pmi_wire_get(msg, "wdir");
    char buf[PMI_WIRE_MAXLINE];

    if (r->spawn_bad)
        return;
    if (pmi_wire_get_int(msg, "maxprocs", &maxprocs) != COMPI_OK ||
        pmi_wire_get_int(msg, "argc", &argc) != COMPI_OK ||
        pmi_wire_get_int(msg, "appnum", &appnum) != COMPI_OK || maxprocs < 1 ||
        maxprocs > MPIRUN_MAX_SPAWNED || argc < 1 || argc > PMI_WIRE_MAXFIELDS)
        goto bad;
    cmds = realloc(r->spawn_cmds, (size_t)(r->spawn_ncmds + 1) * sizeof(*cmds));
    if (cmds == NULL)
        goto bad;
    r->spawn_cmds = cmds;
    c = &cmds[r->spawn_ncmds];
    *c = (mpirun_cmd_t){.maxprocs = maxprocs, .appnum = appnum};
    c->argv = calloc((size_t)argc + 1, sizeof(char *));
    r->spawn_ncmds++;
    if (c->argv == NULL)
        goto bad;
    for (int i = 0; i < argc; i++) {
        char key[16];
        const char *hex;

        snprintf(key, sizeof(key), "arg%d", i);
        if ((hex = pmi_wire_get(msg, key)) == NULL ||
            pmi_wire_hex_decode(hex, buf, sizeof(buf)) != COMPI_OK ||
            (c->argv[i] = strdup(buf)) == NULL)
            goto bad;
    }
    if (wdir != NULL && (pmi_wire_hex_decode(wdir, buf, sizeof(buf)) != COMPI_OK ||
                         (c->wdir = strdup(buf)) == NULL))
        goto bad;
    return;
bad:
    r->spawn_bad = 1; /* spawn_go refuses */
}

static void spawn_refuse(mpirun_rank_t *r, const char *why)
{
    char hex[2 * 512 + 1];

    if (pmi_wire_hex_encode(why, hex, sizeof(hex)) != COMPI_OK)
        snprintf(hex, sizeof(hex), "3f"); /* "?" */
    REPLY(r, "spawn_result", "rc", "-1", "why", hex);
}

static void on_spawn_go(mpirun_job_t *job, mpirun_rank_t *r, const pmi_wire_msg_t *msg)
{
    const char *parent = pmi_wire_get(msg, "parent");
    mpirun_cmd_t *cmds = r->spawn_cmds;
    int ncmds = r->spawn_ncmds, bad = r->spawn_bad, k;
    char why[512], base[16], size[16];

    r->spawn_cmds = NULL;
    r->spawn_ncmds = 0;
    r->spawn_bad = 0;
    if (bad || ncmds == 0 || parent == NULL) {
        job_cmds_free(cmds, ncmds);
        spawn_refuse(r, "malformed spawn request");
        return;
    }
    if (job_spawn_sub(job, cmds, ncmds, parent, &k, why, sizeof(why)) != COMPI_OK) {
        job_cmds_free(cmds, ncmds);
        spawn_refuse(r, why);
        return;
    }
    snprintf(base, sizeof(base), "%d", job->subs[k].base);
    snprintf(size, sizeof(size), "%d", job->subs[k].n);
    REPLY(r, "spawn_result", "rc", "0", "base", base, "size", size);
}

static void handle_line(mpirun_job_t *job, mpirun_rank_t *r, const char *line, size_t n,
                        int truncated)
{
    pmi_wire_msg_t msg;
    const char *cmd;
    char num[16], result[64];

    char safe[1024];

    if (pmi_wire_parse(line, n, &msg) != COMPI_OK || (cmd = pmi_wire_cmd(&msg)) == NULL) {
        fprintf(stderr, "mpirun: rank %d sent a malformed PMI line: '%.200s'\n", r->rank,
                launcher_escape(line, safe, sizeof(safe)));
        return;
    }
    if (strcmp(cmd, "abort") == 0) {
        /* an abort is honoured even when its message was too long for a line */
        on_abort(job, r, &msg);
        return;
    }
    if (truncated) {
        fprintf(stderr, "mpirun: rank %d sent a PMI line longer than %d bytes; ignored\n", r->rank,
                PMI_WIRE_MAXLINE - 1);
        snprintf(result, sizeof(result), "%.40s_result", cmd);
        REPLY(r, result, "rc", "-1", "msg", "line_too_long");
        return;
    }

    if (strcmp(cmd, "init") == 0) {
        r->pmi_inited = 1;
        REPLY(r, "response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "0");
    } else if (strcmp(cmd, "get_maxes") == 0) {
        char kvs[16], key[16], val[16];

        snprintf(kvs, sizeof(kvs), "%d", PMI_WIRE_KVSNAME_MAX);
        snprintf(key, sizeof(key), "%d", PMI_WIRE_KEYLEN_MAX);
        snprintf(val, sizeof(val), "%d", PMI_WIRE_VALLEN_MAX);
        REPLY(r, "maxes", "kvsname_max", kvs, "keylen_max", key, "vallen_max", val, "rc", "0");
    } else if (strcmp(cmd, "get_appnum") == 0) {
        snprintf(num, sizeof(num), "%d", r->cmd != NULL ? r->cmd->appnum : 0);
        REPLY(r, "appnum", "appnum", num);
    } else if (strcmp(cmd, "get_my_kvsname") == 0) {
        REPLY(r, "my_kvsname", "kvsname", job->subs[r->sub].jobid);
    } else if (strcmp(cmd, "get_universe_size") == 0) {
        snprintf(num, sizeof(num), "%d", job->universe);
        REPLY(r, "universe_size", "size", num);
    } else if (strcmp(cmd, "put") == 0) {
        on_put(job, r, &msg);
    } else if (strcmp(cmd, "get") == 0) {
        on_get(job, r, &msg);
    } else if (strcmp(cmd, "barrier_in") == 0) {
        on_barrier_in(job, r);
    } else if (strcmp(cmd, "fetch_add") == 0) {
        on_fetch_add(job, r, &msg);
    } else if (strcmp(cmd, "spawn_cmd") == 0) {
        on_spawn_cmd(r, &msg);
    } else if (strcmp(cmd, "spawn_go") == 0) {
        on_spawn_go(job, r, &msg);
    } else if (strcmp(cmd, "finalize") == 0) {
        r->pmi_finalized = 1;
        REPLY(r, "finalize_ack");
    } else {
        /* spawn, publish_name and the like: say no rather than leave the rank waiting */
        fprintf(stderr, "mpirun: rank %d asked for unsupported PMI command '%.40s'\n", r->rank,
                launcher_escape(cmd, safe, sizeof(safe)));
        snprintf(result, sizeof(result), "%.40s_result", cmd);
        REPLY(r, result, "rc", "-1", "msg", "unsupported_command");
    }
}

int pmi_server_has_lines(const mpirun_rank_t *r)
{
    const pmi_wire_reader_t *rd = &r->reader;

    return r->pmi_fd >= 0 && !r->aborted &&
           (rd->len == sizeof(rd->buf) || memchr(rd->buf, '\n', rd->len) != NULL);
}

/* answers up to `max` whole lines buffered; after an abort the rank is not listened to */
static void handle_lines(mpirun_job_t *job, mpirun_rank_t *r, int max)
{
    char line[PMI_WIRE_MAXLINE];
    int truncated;
    ssize_t n;

    /* MPICH's abort message may hold newlines: what follows an abort is not PMI */
    while (max-- > 0 && r->pmi_fd >= 0 && !r->aborted &&
           (n = pmi_wire_reader_next(&r->reader, line, &truncated)) >= 0)
        handle_line(job, r, line, (size_t)n, truncated);
    if (r->aborted)
        pmi_wire_reader_init(&r->reader);
}

void pmi_server_attach(mpirun_job_t *job, mpirun_rank_t *r, int fd, const pmi_wire_reader_t *reader)
{
    char size[16], rank[16];

    r->pmi_fd = fd;
    r->reader = *reader;
    r->pmi_attached = 1;
    snprintf(size, sizeof(size), "%d", job->subs[0].n);
    snprintf(rank, sizeof(rank), "%d", r->rank);
    REPLY(r, "initack");
    REPLY(r, "set", "size", size);
    REPLY(r, "set", "rank", rank);
    REPLY(r, "set", "debug", "0");
    /* a client that did not wait for the answer may have sent more already */
    handle_lines(job, r, PMI_LINES_PER_TURN);
}

void pmi_server_readable(mpirun_job_t *job, mpirun_rank_t *r)
{
    if (r->pmi_fd < 0)
        return;
    /* lines already read are answered first: a fast sender waits in its own socket */
    if (!r->pmi_eof && !pmi_server_has_lines(r)) {
        ssize_t got = pmi_wire_reader_fill(&r->reader, r->pmi_fd);

        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
                         errno != ENOBUFS))
            r->pmi_eof = 1;
    }
    handle_lines(job, r, PMI_LINES_PER_TURN);
    if (r->pmi_eof && !pmi_server_has_lines(r))
        close_pmi(r);
}

void pmi_server_drain(mpirun_job_t *job, mpirun_rank_t *r)
{
    /*
     * The rank has exited: what it wrote before is in the socket's buffer.  A child it
     * left behind may still hold the socket and write for ever, so read no more than
     * any socket buffer holds.
     */
    size_t budget = PMI_DRAIN_MAX;

    while (r->pmi_fd >= 0) {
        ssize_t got = pmi_wire_reader_fill(&r->reader, r->pmi_fd);
        int done = got == 0 || (got < 0 && errno != ENOBUFS && errno != EINTR);

        if (got > 0)
            budget = (size_t)got < budget ? budget - (size_t)got : 0;
        handle_lines(job, r, 1 << 30);
        if (done || budget == 0)
            close_pmi(r);
    }
}
