/*
 * pmi_tcp.c -- PMI for ranks started through a launch agent: they cannot inherit a
 * socketpair through ssh, so they connect back over TCP, Hydra style.
 *
 * mpirun listens on --pmi-address (else this machine's first non-loopback IPv4 address),
 * and on that address only, at an ephemeral port, and tells each remote rank
 * PMI_PORT=ADDR:PORT and PMI_ID=RANK on the agent's command line.  The port is open to
 * anybody who can reach it, and the command line to anybody who runs ps, so a connection
 * must first show the job's secret: 128 random bits drawn when the job starts, which
 * mpirun writes on the agent's stdin (never on a command line or in an environment) and
 * the rank reads back before it connects (COMPI_PMI_AUTH=stdin tells it to).  The first
 * line of a connection is
 *
 *     rank  -> cmd=initack pmiid=R secret=HEX
 *     mpirun-> cmd=initack / cmd=set size=N / cmd=set rank=R / cmd=set debug=0
 *
 * (pmi_server_attach answers), after which it is rank R's PMI connection, served exactly
 * as a socketpair.  The secret is checked before anything else in the line is looked at:
 * a connection without it is closed at once, counted, and only the first one is named
 * (a flood of them must not flood mpirun's output).  An id that is not a remote rank of
 * the job, or whose rank is already connected, is refused too, with a message.  Once
 * every remote rank is connected the port is closed.
 *
 * Connections that have not shown the secret wait in PMI_TCP_PENDING_MAX places, for at
 * most PMI_TCP_AUTH_TIMEOUT seconds.  When all are taken, the oldest is read once more
 * (a rank writes its first line right after connecting, so a real rank's line is there
 * by then) and dropped.  A rank whose connection was dropped unread connects again
 * (pmi.c), so idle or slow outsiders cannot keep ranks out.
 *
 * Limits: the secret travels in clear over the network, like the rest of PMI; whoever
 * can read the traffic between hosts can read it (see docs/security.md).
 */
#include "core/runtime/launcher/launcher.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

/* this machine's first non-loopback IPv4 address that is up, or -1 */
static int pmi_tcp__first_ipv4(char *buf, size_t len)
{
    struct ifaddrs *all, *ifa;
    int found = -1;

    if (getifaddrs(&all) != 0)
        return -1;
    for (ifa = all; ifa != NULL && found != 0; ifa = ifa->ifa_next) {
        const struct sockaddr_in *sin = (const struct sockaddr_in *)ifa->ifa_addr;

        if (sin == NULL || sin->sin_family != AF_INET || !(ifa->ifa_flags & IFF_UP) ||
            (ifa->ifa_flags & IFF_LOOPBACK))
            continue;
        if (inet_ntop(AF_INET, &sin->sin_addr, buf, (socklen_t)len) != NULL)
            found = 0;
    }
    freeifaddrs(all);
    return found;
}

/* a socket listening on `addr` (a numeric address or a host name), ephemeral port */
static int pmi_tcp__socket(const char *addr, unsigned *port_p)
{
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG};
    struct addrinfo *res = NULL, *ai;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    int fd = -1, rc, e = EADDRNOTAVAIL;

    rc = getaddrinfo(addr, "0", &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "mpirun: cannot resolve the PMI address '%s': %s\n", addr,
                gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                    ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, SOMAXCONN) != 0 ||
            getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
            e = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        fprintf(stderr, "mpirun: cannot listen for the remote ranks' PMI on %s: %s\n", addr,
                strerror(e));
        return -1;
    }
    *port_p = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                       : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

/* 128 random bits from the kernel, as hex */
static compi_status_t pmi_tcp__secret(mpirun_job_t *job)
{
    unsigned char raw[PMI_SECRET_BYTES];
    size_t got = 0;

    while (got < sizeof(raw)) {
        ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fprintf(stderr, "mpirun: cannot draw the job's PMI secret (getrandom): %s\n",
                    strerror(errno));
            return COMPI_ERR_IO;
        }
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof(raw); i++)
        snprintf(job->secret + 2 * i, 3, "%02x", raw[i]);
    return COMPI_OK;
}

compi_status_t pmi_tcp_listen(mpirun_job_t *job)
{
    char addr[INET6_ADDRSTRLEN] = "";
    const char *use = job->opts->pmi_address;
    unsigned port;

    if (pmi_tcp__secret(job) != COMPI_OK)
        return COMPI_ERR_IO;
    if (use == NULL) {
        if (pmi_tcp__first_ipv4(addr, sizeof(addr)) != 0) {
            fprintf(stderr,
                    "mpirun: this machine has no IPv4 address but loopback for remote ranks "
                    "to reach; give one with --pmi-address\n");
            return COMPI_ERR_UNREACHABLE;
        }
        use = addr;
    }
    /* ranks reach us at `use` and nowhere else, so that is the only address we listen on */
    job->listen_fd = pmi_tcp__socket(use, &port);
    if (job->listen_fd < 0)
        return COMPI_ERR_IO;
    snprintf(job->pmi_port, sizeof(job->pmi_port), "%s:%u", use, port);
    return COMPI_OK;
}

static void pmi_tcp__peer(int fd, char *buf, size_t len)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;

    if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (ss.ss_family == AF_INET6) {
            const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;

            inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
            port = ntohs(a->sin6_port);
        } else if (ss.ss_family == AF_INET) {
            const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;

            inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
            port = ntohs(a->sin_port);
        }
    }
    /* dual-stack sockets show IPv4 peers as ::ffff:a.b.c.d */
    snprintf(buf, len, "%s:%u", strncmp(host, "::ffff:", 7) == 0 ? host + 7 : host, port);
}

static void pmi_tcp__drop(pmi_tcp_conn_t *c)
{
    close(c->fd);
    c->fd = -1;
}

/* closes a connection that did not show the secret; only the first one is named */
static void pmi_tcp__refuse(mpirun_job_t *job, pmi_tcp_conn_t *c, const char *why)
{
    if (job->refused++ == 0) {
        snprintf(job->first_refused, sizeof(job->first_refused), "%s", c->peer);
        fprintf(stderr,
                "mpirun: PMI connection from %s refused: %s; the job goes on (further "
                "refusals are only counted)\n",
                c->peer, why);
    }
    pmi_tcp__drop(c);
}

void pmi_tcp_accept(mpirun_job_t *job)
{
    for (;;) {
        int fd = accept4(job->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        pmi_tcp_conn_t *c = NULL, *oldest = NULL;

        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return; /* EAGAIN: all taken; anything else: try again on the next poll */
        }
        for (int i = 0; i < PMI_TCP_PENDING_MAX && c == NULL; i++) {
            pmi_tcp_conn_t *p = &job->pending[i];

            if (p->fd < 0)
                c = p;
            else if (oldest == NULL || p->since < oldest->since)
                oldest = p;
        }
        if (c == NULL) {
            /* a real rank's first line is there by now: hear it before giving up the place */
            pmi_tcp_readable(job, oldest);
            if (job->listen_fd < 0) {
                close(fd); /* that was the last rank: the port is closed */
                return;
            }
            if (oldest->fd >= 0)
                pmi_tcp__refuse(job, oldest, "all places for new connections are taken and "
                                             "it has not shown the job's secret");
            c = oldest;
        }
        c->fd = fd;
        c->since = mpirun_now();
        pmi_wire_reader_init(&c->reader);
        pmi_tcp__peer(fd, c->peer, sizeof(c->peer));
    }
}

/* 1 when `got` is the job's secret; takes the same time whichever byte differs */
static int pmi_tcp__secret_ok(const char *got, const char *want)
{
    size_t n = strlen(want);
    unsigned char diff = 0;

    if (got == NULL || strlen(got) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(got[i] ^ want[i]);
    return diff == 0;
}

/* tells a client that showed the secret why it is refused, then closes the connection */
static void pmi_tcp__deny(pmi_tcp_conn_t *c, const char *why)
{
    char line[PMI_WIRE_MAXLINE];
    size_t len;

    if (pmi_wire_format(line, sizeof(line), &len, "initack", "rc", "-1", "msg", why, NULL) ==
        COMPI_OK) {
        ssize_t n = send(c->fd, line, len, MSG_NOSIGNAL | MSG_DONTWAIT);

        (void)n; /* best effort: the rank sees the connection close either way */
    }
    pmi_tcp__drop(c);
}

/* the rank the first line names, or NULL when the connection was refused (and closed) */
static mpirun_rank_t *pmi_tcp__identify(mpirun_job_t *job, pmi_tcp_conn_t *c, const char *line,
                                        size_t n, int truncated)
{
    pmi_wire_msg_t msg;
    const char *cmd;
    int id;

    /* the secret first: nothing else an outsider sends is looked at */
    if (truncated || pmi_wire_parse(line, n, &msg) != COMPI_OK ||
        !pmi_tcp__secret_ok(pmi_wire_get(&msg, "secret"), job->secret)) {
        pmi_tcp__refuse(job, c, "its first line does not carry the job's secret");
        return NULL;
    }
    if ((cmd = pmi_wire_cmd(&msg)) == NULL || strcmp(cmd, "initack") != 0 ||
        pmi_wire_get_int(&msg, "pmiid", &id) != COMPI_OK) {
        fprintf(stderr,
                "mpirun: PMI connection from %s refused: its first line is not "
                "'cmd=initack pmiid=N'\n",
                c->peer);
        pmi_tcp__deny(c, "not_initack");
        return NULL;
    }
    if (id < 0 || id >= job->n || !job->ranks[id].remote) {
        fprintf(stderr,
                "mpirun: PMI connection from %s refused: id %d is not a rank started "
                "through the launch agent\n",
                c->peer, id);
        pmi_tcp__deny(c, "unknown_id");
        return NULL;
    }
    if (job->ranks[id].pmi_attached) {
        fprintf(stderr, "mpirun: PMI connection from %s refused: rank %d is already connected\n",
                c->peer, id);
        pmi_tcp__deny(c, "already_connected");
        return NULL;
    }
    return &job->ranks[id];
}

void pmi_tcp_readable(mpirun_job_t *job, pmi_tcp_conn_t *c)
{
    char line[PMI_WIRE_MAXLINE];
    int truncated;
    ssize_t got, n;
    mpirun_rank_t *r;

    if (c->fd < 0)
        return;
    got = pmi_wire_reader_fill(&c->reader, c->fd);
    n = pmi_wire_reader_next(&c->reader, line, &truncated);
    if (n < 0) {
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            pmi_tcp__refuse(job, c, "it closed before it showed the job's secret");
        else if (pmi_wire_reader_pending(&c->reader) >= PMI_WIRE_MAXLINE - 1)
            pmi_tcp__refuse(job, c, "its first line does not carry the job's secret");
        return;
    }
    r = pmi_tcp__identify(job, c, line, (size_t)n, truncated);
    if (r == NULL)
        return;
    pmi_server_attach(job, r, c->fd, &c->reader);
    c->fd = -1;
    if (++job->nconnected == job->nremote)
        pmi_tcp_close(job);
}

double pmi_tcp_deadline(const mpirun_job_t *job)
{
    double first = 0;

    for (int i = 0; i < PMI_TCP_PENDING_MAX; i++)
        if (job->pending[i].fd >= 0 && (first == 0 || job->pending[i].since < first))
            first = job->pending[i].since;
    return first > 0 ? first + PMI_TCP_AUTH_TIMEOUT : 0;
}

void pmi_tcp_tick(mpirun_job_t *job)
{
    double now = mpirun_now();

    for (int i = 0; i < PMI_TCP_PENDING_MAX; i++) {
        pmi_tcp_conn_t *c = &job->pending[i];

        if (c->fd >= 0 && now >= c->since + PMI_TCP_AUTH_TIMEOUT)
            pmi_tcp__refuse(job, c, "it did not show the job's secret in time");
    }
}

void pmi_tcp_report(const mpirun_job_t *job)
{
    if (job->refused > 1)
        fprintf(stderr, "mpirun: refused %lu PMI connections without the job's secret (the "
                        "first from %s)\n",
                job->refused, job->first_refused);
}

void pmi_tcp_close(mpirun_job_t *job)
{
    if (job->listen_fd >= 0)
        close(job->listen_fd);
    job->listen_fd = -1;
    for (int i = 0; i < PMI_TCP_PENDING_MAX; i++)
        if (job->pending[i].fd >= 0)
            pmi_tcp__drop(&job->pending[i]);
}
