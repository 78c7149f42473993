/*
 * pmi.c -- client of the PMI-1 wire protocol, as served by our mpirun and by MPICH's Hydra.
 *
 * Every call is one request line and one reply line on a blocking socket (PMI_FD from the
 * launcher, or a TCP connection to PMI_PORT).  Without a launcher the process is a
 * singleton: puts and gets go to a small local table and barriers return at once.
 *
 * A rank on a TCP connection was started through a launch agent (ssh) or a launcher's
 * proxy, and nothing ties its life to the launcher's: a killed ssh leaves it running.  So
 * a thread watches the connection from init to finalize and ends the process when the
 * launcher closes it (the launcher has ended, or gave up on the job).  It only waits in
 * poll(); it never reads, so replies are left to the calls.
 *
 * Our mpirun accepts a TCP connection only from a rank that shows the job's secret, which
 * it writes on the rank's stdin (COMPI_PMI_AUTH=stdin says so; the line is read one byte
 * at a time, so the rest of stdin stays the program's).  A connection that mpirun closes
 * before answering (an outsider may have crowded it out) is tried again a few times.
 * Hydra sets no COMPI_PMI_AUTH and is spoken to as before.  PMI_FD is marked close-on-exec:
 * a child the rank starts (system()) cannot speak PMI as the rank.
 *
 * Started by a PMIx launcher (Open MPI's mpirun, ...) and without PMI_FD/PMI_PORT, every
 * call goes to the PMIx backend instead (pmi_pmix.c); the PMI-1 wire stays the default.
 */
#include "core/runtime/pmi.h"
#include "core/runtime/pmi_wire.h"
#include "core/runtime/pmi_pmix.h"
#include "core/runtime/log.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* longest secret accepted on stdin (hex digits), and tries of a TCP connection */
#define PMI_SECRET_MAX 128
#define PMI_CONNECT_TRIES 8

typedef struct pmi_local_kv {
    struct pmi_local_kv *next;
    char *key;
    char *value;
} pmi_local_kv_t;

static struct {
    int initialized;
    int pmix; /* calls go to pmi_pmix.c */
    int fd;   /* -1 for a singleton */
    int rank, size;
    int keylen_max, vallen_max;
    char kvsname[PMI_WIRE_KVSNAME_MAX];
    char secret[PMI_SECRET_MAX + 1]; /* shown on a TCP connection; empty: none */
    pmi_wire_reader_t reader;
    pmi_local_kv_t *local; /* singleton's key-value table */
    int watching;          /* the watcher thread runs; wake[1] stops it */
    int wake[2];
    pthread_t watcher;
} pmi = {.fd = -1, .wake = {-1, -1}};

static int env_int(const char *name, int *value_p)
{
    const char *s = getenv(name);
    char *endp;
    long v;

    if (s == NULL || *s == '\0')
        return 0;
    v = strtol(s, &endp, 10);
    if (*endp != '\0' || v < 0 || v > 0x7fffffff)
        return 0;
    *value_p = (int)v;
    return 1;
}

static compi_status_t send_all(const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = send(pmi.fd, buf, len, MSG_NOSIGNAL);

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            compi_log_error("PMI: cannot write to the launcher (fd %d): %s", pmi.fd,
                            strerror(errno));
            return COMPI_ERR_PMI;
        }
        buf += n;
        len -= (size_t)n;
    }
    return COMPI_OK;
}

/* with eof_p, an end of file is not logged but said there (a connection to try again) */
static compi_status_t recv_line_or_eof(pmi_wire_msg_t *reply, int *eof_p)
{
    char line[PMI_WIRE_MAXLINE];
    int truncated;
    ssize_t n;

    while ((n = pmi_wire_reader_next(&pmi.reader, line, &truncated)) < 0) {
        ssize_t got = pmi_wire_reader_fill(&pmi.reader, pmi.fd);

        if (got == 0 && eof_p != NULL) {
            *eof_p = 1;
            return COMPI_ERR_PMI;
        }
        if (got == 0) {
            compi_log_error("PMI: the launcher closed the connection");
            return COMPI_ERR_PMI;
        }
        if (got < 0) {
            compi_log_error("PMI: cannot read from the launcher: %s", strerror(errno));
            return COMPI_ERR_PMI;
        }
    }
    if (truncated || pmi_wire_parse(line, (size_t)n, reply) != COMPI_OK) {
        compi_log_error("PMI: malformed reply from the launcher: '%.200s'", line);
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

static compi_status_t recv_line(pmi_wire_msg_t *reply)
{
    return recv_line_or_eof(reply, NULL);
}

/*
 * Reads one reply and checks that it is `expect` and, when it carries rc, that rc is 0.
 * A non-zero rc comes back as COMPI_ERR_NOT_FOUND without logging: only the caller knows
 * whether that is an error (a missing key often is not).
 */
static compi_status_t expect_reply(const char *expect, pmi_wire_msg_t *reply)
{
    compi_status_t st = recv_line(reply);
    const char *cmd;
    int rc;

    if (st != COMPI_OK)
        return st;
    cmd = pmi_wire_cmd(reply);
    if (cmd == NULL || strcmp(cmd, expect) != 0) {
        compi_log_error("PMI: expected '%s' from the launcher, got '%s'", expect,
                        cmd != NULL ? cmd : "(no cmd)");
        return COMPI_ERR_PMI;
    }
    if (pmi_wire_get_int(reply, "rc", &rc) == COMPI_OK && rc != 0)
        return COMPI_ERR_NOT_FOUND;
    return COMPI_OK;
}

/* sends a line formatted by the caller, then waits for `expect` */
static compi_status_t call(const char *line, size_t len, const char *expect, pmi_wire_msg_t *reply)
{
    compi_status_t st = send_all(line, len);

    return st != COMPI_OK ? st : expect_reply(expect, reply);
}

static compi_status_t connect_port(const char *port_spec)
{
    char host[256];
    const char *colon = strrchr(port_spec, ':');
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL, *ai;
    size_t hlen;
    int rc, fd = -1;

    if (colon == NULL || colon == port_spec ||
        (hlen = (size_t)(colon - port_spec)) >= sizeof(host)) {
        compi_log_error("PMI: PMI_PORT '%s' is not host:port", port_spec);
        return COMPI_ERR_PMI;
    }
    memcpy(host, port_spec, hlen);
    host[hlen] = '\0';
    rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0) {
        compi_log_error("PMI: cannot resolve PMI_PORT %s: %s", port_spec, gai_strerror(rc));
        return COMPI_ERR_PMI;
    }
    for (ai = res; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0)
            continue;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        compi_log_error("PMI: cannot connect to PMI_PORT %s: %s", port_spec, strerror(errno));
        return COMPI_ERR_PMI;
    }
    pmi.fd = fd;
    return COMPI_OK;
}

/*
 * COMPI_PMI_AUTH=stdin: the first line of stdin is the job's secret.  Read one byte at a
 * time so that nothing after the newline is taken from the program.
 */
static compi_status_t read_secret(void)
{
    const char *how = getenv("COMPI_PMI_AUTH");
    size_t n = 0;
    char c;

    pmi.secret[0] = '\0';
    if (how == NULL || *how == '\0')
        return COMPI_OK;
    if (strcmp(how, "stdin") != 0) {
        compi_log_error("PMI: COMPI_PMI_AUTH='%.40s' is not 'stdin'", how);
        return COMPI_ERR_PMI;
    }
    for (;;) {
        ssize_t got = read(0, &c, 1);

        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || c == '\n')
            break;
        if (n == PMI_SECRET_MAX || !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            compi_log_error("PMI: the job's secret on stdin is not up to %d hex digits",
                            PMI_SECRET_MAX);
            return COMPI_ERR_PMI;
        }
        pmi.secret[n++] = c;
    }
    pmi.secret[n] = '\0';
    if (n == 0) {
        compi_log_error("PMI: COMPI_PMI_AUTH=stdin, but stdin holds no secret (the launcher "
                        "writes it there)");
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

/*
 * With PMI_PORT, the launcher tells rank and size after an "initack" handshake that names
 * the PMI_ID it gave us (and shows the secret when we have one): "cmd=initack" then
 * "cmd=set size=N", "cmd=set rank=R", "cmd=set debug=D".  With eof_p, a connection closed
 * before the first reply is said there instead of logged.
 */
static compi_status_t port_handshake(int pmi_id, int *eof_p)
{
    char line[PMI_WIRE_MAXLINE], id[16];
    pmi_wire_msg_t reply;
    compi_status_t st;
    size_t len;

    snprintf(id, sizeof(id), "%d", pmi_id);
    if (pmi.secret[0] != '\0')
        st = pmi_wire_format(line, sizeof(line), &len, "initack", "pmiid", id, "secret",
                             pmi.secret, NULL);
    else
        st = pmi_wire_format(line, sizeof(line), &len, "initack", "pmiid", id, NULL);
    if (st == COMPI_OK)
        st = send_all(line, len);
    if (st == COMPI_OK)
        st = recv_line_or_eof(&reply, eof_p);
    if (st == COMPI_OK) {
        const char *cmd = pmi_wire_cmd(&reply);
        int rc;

        if (cmd == NULL || strcmp(cmd, "initack") != 0 ||
            (pmi_wire_get_int(&reply, "rc", &rc) == COMPI_OK && rc != 0)) {
            const char *msg = pmi_wire_get(&reply, "msg");

            compi_log_error("PMI: the launcher refused our connection as PMI_ID %d: %s", pmi_id,
                            msg != NULL ? msg : "no reason given");
            return COMPI_ERR_PMI;
        }
    }
    for (int i = 0; i < 3 && st == COMPI_OK; i++) {
        int v;

        st = expect_reply("set", &reply);
        if (st != COMPI_OK)
            break;
        if (pmi_wire_get_int(&reply, "size", &v) == COMPI_OK)
            pmi.size = v;
        else if (pmi_wire_get_int(&reply, "rank", &v) == COMPI_OK)
            pmi.rank = v;
    }
    if (st != COMPI_OK && (eof_p == NULL || !*eof_p))
        compi_log_error("PMI: handshake with the launcher on PMI_PORT failed");
    return st;
}

/* connects to PMI_PORT as PMI_ID, again when the launcher closes before answering */
static compi_status_t port_open(const char *port_spec, int pmi_id)
{
    for (int attempt = 1;; attempt++) {
        int eof = 0, last = attempt == PMI_CONNECT_TRIES;
        compi_status_t st = connect_port(port_spec);
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 20000000L * attempt};

        if (st != COMPI_OK)
            return st;
        st = port_handshake(pmi_id, last ? NULL : &eof);
        if (st == COMPI_OK || !eof)
            return st;
        close(pmi.fd);
        pmi.fd = -1;
        pmi_wire_reader_init(&pmi.reader);
        nanosleep(&pause, NULL);
    }
}

static void *watch_launcher(void *arg)
{
    static const char msg[] = "compi: the launcher closed its PMI connection (it has ended or "
                              "is ending the job); exiting\n";
    struct pollfd p[2] = {{.fd = pmi.fd, .events = POLLRDHUP},
                          {.fd = pmi.wake[0], .events = POLLIN}};

    (void)arg;
    for (;;) {
        int n = poll(p, 2, -1);

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || p[1].revents != 0)
            return NULL; /* finalize: the connection closes on our side */
        if (p[0].revents & (POLLRDHUP | POLLHUP | POLLERR)) {
            if (write(2, msg, sizeof(msg) - 1) < 0) {
                /* nowhere to say it */
            }
            _exit(1);
        }
    }
}

/* starts the watcher; without it the rank only lives on past its launcher, so a failure
   is logged and not fatal */
static void watch_start(void)
{
    int e;

    if (pipe2(pmi.wake, O_CLOEXEC) != 0) {
        compi_log_warn("PMI: cannot watch the launcher's connection: %s", strerror(errno));
        return;
    }
    e = pthread_create(&pmi.watcher, NULL, watch_launcher, NULL);
    if (e != 0) {
        compi_log_warn("PMI: cannot watch the launcher's connection: %s", strerror(e));
        close(pmi.wake[0]);
        close(pmi.wake[1]);
        pmi.wake[0] = pmi.wake[1] = -1;
        return;
    }
    pmi.watching = 1;
}

/* stops the watcher before our side closes the connection */
static void watch_stop(void)
{
    if (!pmi.watching)
        return;
    if (write(pmi.wake[1], "x", 1) != 1)
        pthread_cancel(pmi.watcher); /* poll is a cancellation point */
    pthread_join(pmi.watcher, NULL);
    close(pmi.wake[0]);
    close(pmi.wake[1]);
    pmi.wake[0] = pmi.wake[1] = -1;
    pmi.watching = 0;
}

/* init, maxes, appnum, universe size and kvsname, in the order MPICH's client asks */
static compi_status_t handshake(pmi_info_t *info)
{
    char line[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    const char *s;
    compi_status_t st;
    size_t len;
    int v;

    pmi_wire_format(line, sizeof(line), &len, "init", "pmi_version", "1", "pmi_subversion", "1",
                    NULL);
    st = call(line, len, "response_to_init", &reply);
    if (st != COMPI_OK)
        goto err;

    pmi_wire_format(line, sizeof(line), &len, "get_maxes", NULL);
    st = call(line, len, "maxes", &reply);
    if (st != COMPI_OK)
        goto err;
    /* our own limits bound what we send even if the launcher allows more */
    pmi.keylen_max = PMI_WIRE_KEYLEN_MAX;
    pmi.vallen_max = PMI_WIRE_VALLEN_MAX;
    if (pmi_wire_get_int(&reply, "keylen_max", &v) == COMPI_OK && v > 0 && v < pmi.keylen_max)
        pmi.keylen_max = v;
    if (pmi_wire_get_int(&reply, "vallen_max", &v) == COMPI_OK && v > 0 && v < pmi.vallen_max)
        pmi.vallen_max = v;

    pmi_wire_format(line, sizeof(line), &len, "get_appnum", NULL);
    st = call(line, len, "appnum", &reply);
    if (st != COMPI_OK)
        goto err;
    if (pmi_wire_get_int(&reply, "appnum", &v) == COMPI_OK)
        info->appnum = v;

    pmi_wire_format(line, sizeof(line), &len, "get_universe_size", NULL);
    st = call(line, len, "universe_size", &reply);
    if (st != COMPI_OK)
        goto err;
    /* Hydra answers -1 when it does not know */
    if (pmi_wire_get_int(&reply, "size", &v) == COMPI_OK && v > 0)
        info->universe_size = v;

    pmi_wire_format(line, sizeof(line), &len, "get_my_kvsname", NULL);
    st = call(line, len, "my_kvsname", &reply);
    if (st != COMPI_OK)
        goto err;
    s = pmi_wire_get(&reply, "kvsname");
    if (s == NULL || strlen(s) >= sizeof(pmi.kvsname)) {
        compi_log_error("PMI: the launcher gave no usable kvsname");
        st = COMPI_ERR_PMI;
        goto err;
    }
    strcpy(pmi.kvsname, s);
    return COMPI_OK;

err:
    if (st == COMPI_ERR_NOT_FOUND) {
        compi_log_error("PMI: the launcher refused the PMI-1 handshake");
        st = COMPI_ERR_PMI;
    }
    return st;
}

static void fill_info(pmi_info_t *info)
{
    info->rank = pmi.rank;
    info->size = pmi.size;
    info->singleton = pmi.fd < 0;
    snprintf(info->kvsname, sizeof(info->kvsname), "%s", pmi.kvsname);
}

compi_status_t pmi_init(pmi_info_t *info)
{
    const char *port = getenv("PMI_PORT");
    compi_status_t st;
    int fd, id;

    memset(info, 0, sizeof(*info));
    if (pmi.initialized && pmi.pmix) {
        fill_info(info);
        info->singleton = 0;
        info->universe_size = pmi.size;
        return COMPI_OK;
    }
    if (pmi.initialized) {
        fill_info(info);
        info->universe_size = pmi.size;
        return COMPI_OK;
    }
    pmi_wire_reader_init(&pmi.reader);
    pmi.rank = 0;
    pmi.size = 1;
    info->universe_size = -1;

    if (env_int("PMI_FD", &fd)) {
        pmi.fd = fd;
        if (!env_int("PMI_RANK", &pmi.rank) || !env_int("PMI_SIZE", &pmi.size) || pmi.size < 1 ||
            pmi.rank >= pmi.size) {
            compi_log_error("PMI: PMI_FD is set but PMI_RANK/PMI_SIZE are missing or wrong");
            st = COMPI_ERR_PMI;
            goto err;
        }
        /* ours alone: a program the rank starts must not inherit it */
        if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
            compi_log_error("PMI: PMI_FD %d is not an open descriptor: %s", fd, strerror(errno));
            st = COMPI_ERR_PMI;
            goto err;
        }
    } else if (port != NULL && *port != '\0') {
        st = read_secret();
        if (st != COMPI_OK)
            goto err;
        if (env_int("PMI_ID", &id)) {
            st = port_open(port, id);
            memset(pmi.secret, 0, sizeof(pmi.secret)); /* not needed again */
            if (st != COMPI_OK)
                goto err;
        } else if ((st = connect_port(port)) != COMPI_OK) {
            goto err;
        } else if (!env_int("PMI_RANK", &pmi.rank) || !env_int("PMI_SIZE", &pmi.size)) {
            compi_log_error("PMI: PMI_PORT is set but neither PMI_ID nor PMI_RANK/PMI_SIZE");
            st = COMPI_ERR_PMI;
            goto err;
        }
    } else if (pmi_pmix_detected()) {
#ifdef COMPI_HAVE_PMIX
        st = pmi_pmix_init(info);
        if (st != COMPI_OK)
            return st;
        pmi.rank = info->rank;
        pmi.size = info->size;
        snprintf(pmi.kvsname, sizeof(pmi.kvsname), "%s", info->kvsname);
        /* the wire's limits, so keys and values that pass here pass everywhere */
        pmi.keylen_max = PMI_WIRE_KEYLEN_MAX;
        pmi.vallen_max = PMI_WIRE_VALLEN_MAX;
        pmi.pmix = 1;
        pmi.initialized = 1;
        return COMPI_OK;
#else
        compi_log_error("PMI: started by a PMIx launcher (PMIX_* in the environment), but "
                        "compi was built without PMIx: install libpmix-dev and re-run "
                        "configure, or start the job with compi's mpirun");
        return COMPI_ERR_PMI;
#endif
    } else {
        /* singleton: no launcher */
        snprintf(pmi.kvsname, sizeof(pmi.kvsname), "singleton_%ld", (long)getpid());
        pmi.keylen_max = PMI_WIRE_KEYLEN_MAX;
        pmi.vallen_max = PMI_WIRE_VALLEN_MAX;
        pmi.initialized = 1;
        fill_info(info);
        info->universe_size = 1;
        return COMPI_OK;
    }

    st = handshake(info);
    if (st != COMPI_OK)
        goto err;
    if (info->universe_size < pmi.size)
        info->universe_size = pmi.size;
    if (getenv("PMI_FD") == NULL)
        watch_start();
    pmi.initialized = 1;
    fill_info(info);
    return COMPI_OK;

err:
    if (pmi.fd >= 0 && getenv("PMI_FD") == NULL)
        close(pmi.fd);
    pmi.fd = -1;
    return st;
}

/* keys and values travel as single wire fields: no blanks, bounded lengths */
static compi_status_t check_kv(const char *what, const char *s, int max)
{
    size_t len = strlen(s);

    if ((len == 0 && strcmp(what, "key") == 0) || strpbrk(s, " \t\n\r") != NULL) {
        compi_log_error("PMI: %s '%.100s' is empty or holds blanks", what, s);
        return COMPI_ERR_INVALID_PARAM;
    }
    if (len >= (size_t)max) {
        compi_log_error("PMI: %s of %zu bytes is longer than the launcher allows (%d)", what, len,
                        max - 1);
        return COMPI_ERR_INVALID_PARAM;
    }
    return COMPI_OK;
}

static pmi_local_kv_t *local_find(const char *key)
{
    for (pmi_local_kv_t *kv = pmi.local; kv != NULL; kv = kv->next)
        if (strcmp(kv->key, key) == 0)
            return kv;
    return NULL;
}

static compi_status_t local_put(const char *key, const char *value)
{
    pmi_local_kv_t *kv = local_find(key);
    char *v = strdup(value);

    if (v == NULL)
        return COMPI_ERR_NO_MEMORY;
    if (kv == NULL) {
        kv = calloc(1, sizeof(*kv));
        if (kv == NULL || (kv->key = strdup(key)) == NULL) {
            free(kv);
            free(v);
            return COMPI_ERR_NO_MEMORY;
        }
        kv->next = pmi.local;
        pmi.local = kv;
    }
    free(kv->value);
    kv->value = v;
    return COMPI_OK;
}

compi_status_t pmi_put(const char *key, const char *value)
{
    char line[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    compi_status_t st;
    size_t len;

    if (!pmi.initialized)
        return COMPI_ERR_PMI;
    st = check_kv("key", key, pmi.keylen_max);
    if (st == COMPI_OK)
        st = check_kv("value", value, pmi.vallen_max);
    if (st != COMPI_OK)
        return st;
#ifdef COMPI_HAVE_PMIX
    if (pmi.pmix)
        return pmi_pmix_put(key, value);
#endif
    if (pmi.fd < 0)
        return local_put(key, value);

    st = pmi_wire_format(line, sizeof(line), &len, "put", "kvsname", pmi.kvsname, "key", key,
                         "value", value, NULL);
    if (st != COMPI_OK) {
        compi_log_error("PMI: put of key '%.100s' does not fit a PMI line", key);
        return COMPI_ERR_INVALID_PARAM;
    }
    st = call(line, len, "put_result", &reply);
    if (st == COMPI_ERR_NOT_FOUND) {
        const char *msg = pmi_wire_get(&reply, "msg");

        compi_log_error("PMI: the launcher refused put of key '%s': %s", key,
                        msg != NULL ? msg : "no reason given");
        st = COMPI_ERR_PMI;
    }
    return st;
}

compi_status_t pmi_commit(void)
{
#ifdef COMPI_HAVE_PMIX
    if (pmi.initialized && pmi.pmix)
        return pmi_pmix_commit();
#endif
    /* PMI-1 puts are visible after the next barrier; nothing to flush */
    return pmi.initialized ? COMPI_OK : COMPI_ERR_PMI;
}

compi_status_t pmi_barrier(void)
{
    char line[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    size_t len;

    if (!pmi.initialized)
        return COMPI_ERR_PMI;
#ifdef COMPI_HAVE_PMIX
    if (pmi.pmix)
        return pmi_pmix_barrier();
#endif
    if (pmi.fd < 0)
        return COMPI_OK;
    pmi_wire_format(line, sizeof(line), &len, "barrier_in", NULL);
    return call(line, len, "barrier_out", &reply);
}

compi_status_t pmi_get(int rank_hint, const char *key, char *value, size_t len)
{
    char line[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    const char *v;
    compi_status_t st;
    size_t n;

    if (!pmi.initialized)
        return COMPI_ERR_PMI;
    st = check_kv("key", key, pmi.keylen_max);
    if (st != COMPI_OK)
        return st;
#ifdef COMPI_HAVE_PMIX
    if (pmi.pmix)
        return pmi_pmix_get(rank_hint, key, value, len);
#endif
    (void)rank_hint; /* PMI-1 has one flat key space */
    if (pmi.fd < 0) {
        pmi_local_kv_t *kv = local_find(key);

        if (kv == NULL)
            return COMPI_ERR_NOT_FOUND;
        v = kv->value;
    } else {
        st = pmi_wire_format(line, sizeof(line), &n, "get", "kvsname", pmi.kvsname, "key", key,
                             NULL);
        if (st != COMPI_OK)
            return COMPI_ERR_INVALID_PARAM;
        st = call(line, n, "get_result", &reply);
        if (st != COMPI_OK)
            return st;
        v = pmi_wire_get(&reply, "value");
        if (v == NULL) {
            compi_log_error("PMI: get of key '%s': reply without a value", key);
            return COMPI_ERR_PMI;
        }
    }
    if (strlen(v) >= len)
        return COMPI_ERR_TRUNCATE;
    strcpy(value, v);
    return COMPI_OK;
}

compi_status_t pmi_finalize(void)
{
    char line[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    compi_status_t st = COMPI_OK;
    size_t len;

    if (!pmi.initialized)
        return COMPI_OK;
#ifdef COMPI_HAVE_PMIX
    if (pmi.pmix) {
        pmi.initialized = 0;
        pmi.pmix = 0;
        return pmi_pmix_finalize();
    }
#endif
    if (pmi.fd >= 0) {
        pmi_wire_format(line, sizeof(line), &len, "finalize", NULL);
        /* launchers may close the connection right after the ack (Hydra does) */
        watch_stop();
        st = call(line, len, "finalize_ack", &reply);
        close(pmi.fd);
        pmi.fd = -1;
    }
    while (pmi.local != NULL) {
        pmi_local_kv_t *kv = pmi.local;

        pmi.local = kv->next;
        free(kv->key);
        free(kv->value);
        free(kv);
    }
    pmi.initialized = 0;
    return st;
}

int pmi_abort_prints_line(void)
{
    const char *j = getenv("COMPI_JOBID");

    return pmi.initialized && !pmi.pmix && pmi.fd >= 0 && getenv("PMI_FD") != NULL && j != NULL &&
           *j != '\0';
}

static compi_status_t pmi__abort(int code, const char *msg, int is_line);

compi_status_t pmi_abort(int code, const char *msg)
{
    return pmi__abort(code, msg, 0);
}

compi_status_t pmi_abort_line(int code, const char *line)
{
    return pmi__abort(code, line, pmi_abort_prints_line());
}

/* is_line: msg is the line for people, and the launcher (compi's mpirun) prints it */
static compi_status_t pmi__abort(int code, const char *msg, int is_line)
{
    char line[PMI_WIRE_MAXLINE], text[1024], num[16];
    compi_status_t st;
    size_t len;

#ifdef COMPI_HAVE_PMIX
    if (pmi.initialized && pmi.pmix)
        return pmi_pmix_abort(code, msg);
#endif
    if (!pmi.initialized || pmi.fd < 0)
        return COMPI_OK; /* no launcher to tell: the caller's exit is the abort */
    snprintf(num, sizeof(num), "%d", code);
    /* Hydra and our mpirun take the free-text "message" field; cut it to fit a line */
    snprintf(text, sizeof(text), "%s", msg != NULL ? msg : "");
    if (text[0] != '\0' && is_line)
        st = pmi_wire_format(line, sizeof(line), &len, "abort", "exitcode", num, "line", "1",
                             "message", text, NULL);
    else if (text[0] != '\0')
        st = pmi_wire_format(line, sizeof(line), &len, "abort", "exitcode", num, "message", text,
                             NULL);
    else
        st = pmi_wire_format(line, sizeof(line), &len, "abort", "exitcode", num, NULL);
    if (st != COMPI_OK)
        return st;
    /* No reply comes: the launcher kills the job.  Wait for that (up to a second) with
       the connection open, so the launcher never writes to a rank that is gone: Hydra
       could die of SIGPIPE then, and report that instead of the abort's code. */
    if ((st = send_all(line, len)) != COMPI_OK)
        return st;
    struct pollfd pfd = {.fd = pmi.fd, .events = POLLIN};
    char sink[256];
    for (int waited = 0; waited < 1000 && poll(&pfd, 1, 100) >= 0; waited += 100) {
        if ((pfd.revents & (POLLHUP | POLLERR)) ||
            ((pfd.revents & POLLIN) && recv(pmi.fd, sink, sizeof(sink), 0) <= 0))
            break;
    }
    return COMPI_OK;
}

int pmi_can_spawn(void)
{
    const char *u = getenv("COMPI_UNIVERSE");

    return pmi.initialized && !pmi.pmix && pmi.fd >= 0 && getenv("PMI_FD") != NULL && u != NULL &&
           *u != '\0';
}

/* one spawn_cmd line: the fields' storage is `hex`, PMI_WIRE_MAXLINE bytes */
static compi_status_t pmi__spawn_line(const pmi_spawn_cmd_t *c, char *line, size_t *len_p,
                                      char *hex)
{
    const char *kv[2 * PMI_WIRE_MAXFIELDS];
    char keys[PMI_WIRE_MAXFIELDS][16], mp[16], an[16], ac[16];
    size_t used = 0;
    int n = 0, argc = 0;

    while (c->argv[argc] != NULL)
        argc++;
    if (argc + 5 > PMI_WIRE_MAXFIELDS) /* cmd, maxprocs, appnum, argc, wdir */
        return COMPI_ERR_INVALID_PARAM;
    snprintf(mp, sizeof(mp), "%d", c->maxprocs);
    snprintf(an, sizeof(an), "%d", c->appnum);
    snprintf(ac, sizeof(ac), "%d", argc);
    kv[n++] = "maxprocs";
    kv[n++] = mp;
    kv[n++] = "appnum";
    kv[n++] = an;
    kv[n++] = "argc";
    kv[n++] = ac;
    for (int i = 0; i <= argc; i++) {
        const char *v = i < argc ? c->argv[i] : c->wdir;

        if (v == NULL)
            break;
        if (pmi_wire_hex_encode(v, hex + used, PMI_WIRE_MAXLINE - used) != COMPI_OK)
            return COMPI_ERR_INVALID_PARAM;
        snprintf(keys[i], sizeof(keys[i]), "arg%d", i);
        kv[n++] = i < argc ? keys[i] : "wdir";
        kv[n++] = hex + used;
        used += strlen(hex + used) + 1;
    }
    return pmi_wire_format_list(line, PMI_WIRE_MAXLINE, len_p, "spawn_cmd", kv, n) == COMPI_OK
               ? COMPI_OK
               : COMPI_ERR_INVALID_PARAM;
}

compi_status_t pmi_spawn(int ncmds, const pmi_spawn_cmd_t *cmds, const char *parent_key,
                         int *base_p, int *size_p, char *why, size_t whylen)
{
    char line[PMI_WIRE_MAXLINE], hex[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    compi_status_t st;
    size_t len;

    snprintf(why, whylen, "%s", "");
    if (!pmi_can_spawn())
        return COMPI_ERR_UNSUPPORTED;
    for (int c = 0; c < ncmds; c++) {
        st = pmi__spawn_line(&cmds[c], line, &len, hex);
        if (st != COMPI_OK) {
            snprintf(why, whylen,
                     "the command line of '%.200s' is too long for the launcher (at most %d "
                     "arguments, %d bytes)",
                     cmds[c].argv[0], PMI_WIRE_MAXFIELDS - 6, PMI_WIRE_MAXLINE / 2 - 200);
            return st;
        }
        /* no reply to these: mpirun answers the whole request at spawn_go */
        if ((st = send_all(line, len)) != COMPI_OK)
            return st;
    }
    pmi_wire_format(line, sizeof(line), &len, "spawn_go", "parent", parent_key, NULL);
    st = call(line, len, "spawn_result", &reply);
    if (st == COMPI_ERR_NOT_FOUND) {
        const char *w = pmi_wire_get(&reply, "why");
        char text[PMI_WIRE_MAXLINE];

        if (w == NULL || pmi_wire_hex_decode(w, text, sizeof(text)) != COMPI_OK)
            snprintf(text, sizeof(text), "no reason given");
        snprintf(why, whylen, "%s", text);
        return COMPI_ERR_NOT_FOUND;
    }
    if (st != COMPI_OK)
        return st;
    if (pmi_wire_get_int(&reply, "base", base_p) != COMPI_OK ||
        pmi_wire_get_int(&reply, "size", size_p) != COMPI_OK) {
        compi_log_error("PMI: malformed spawn_result from the launcher");
        return COMPI_ERR_PMI;
    }
    return COMPI_OK;
}

compi_status_t pmi_fetch_add(const char *key, int *old_p)
{
    char line[PMI_WIRE_MAXLINE];
    pmi_wire_msg_t reply;
    compi_status_t st;
    size_t len;

    if (!pmi_can_spawn())
        return COMPI_ERR_UNSUPPORTED;
    if ((st = check_kv("key", key, pmi.keylen_max)) != COMPI_OK)
        return st;
    pmi_wire_format(line, sizeof(line), &len, "fetch_add", "key", key, NULL);
    st = call(line, len, "fetch_add_result", &reply);
    if (st == COMPI_OK && pmi_wire_get_int(&reply, "value", old_p) != COMPI_OK)
        st = COMPI_ERR_PMI;
    return st == COMPI_ERR_NOT_FOUND ? COMPI_ERR_PMI : st;
}
