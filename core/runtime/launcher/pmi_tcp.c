/*
 * pmi_tcp.c -- PMI for ranks started through a launch agent: they cannot inherit a
 * socketpair through ssh, so they connect back over TCP, Hydra style.
 *
 * mpirun listens on all addresses at an ephemeral port and tells each remote rank
 * PMI_PORT=ADDR:PORT and PMI_ID=RANK.  ADDR is --pmi-address, or this machine's first
 * non-loopback IPv4 address.  A new connection is anonymous until its first line:
 *
 *     rank  -> cmd=initack pmiid=R
 *     mpirun-> cmd=initack / cmd=set size=N / cmd=set rank=R / cmd=set debug=0
 *
 * (pmi_server_attach answers), after which it is rank R's PMI connection, served exactly
 * as a socketpair.  An id that is not a remote rank of the job, or whose rank is already
 * connected, is refused: the connection is closed with a message.  Once every remote rank
 * is connected the port is closed.
 *
 * Limits: anybody who can reach the port before a rank does can claim its id (as with
 * Hydra); a connection that never sends its first line holds one of PMI_TCP_PENDING_MAX
 * places until the port closes.
 */
#include "core/runtime/launcher/launcher.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* a socket listening on every address (IPv6 and IPv4 where possible), ephemeral port */
static int pmi_tcp__socket(unsigned *port_p)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

    if (fd >= 0) {
        struct sockaddr_in6 a6 = {.sin6_family = AF_INET6, .sin6_addr = in6addr_any};
        int off = 0;

        if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)) != 0 ||
            bind(fd, (struct sockaddr *)&a6, sizeof(a6)) != 0) {
            close(fd);
            fd = -1;
        }
    }
    if (fd < 0) {
        /* no IPv6 on this machine */
        struct sockaddr_in a4 = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};

        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0)
            return -1;
        if (bind(fd, (struct sockaddr *)&a4, sizeof(a4)) != 0)
            goto err;
    }
    if (listen(fd, SOMAXCONN) != 0 || getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
        goto err;
    *port_p = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                       : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return fd;

err:
    close(fd);
    return -1;
}

compi_status_t pmi_tcp_listen(mpirun_job_t *job)
{
    char addr[INET6_ADDRSTRLEN] = "";
    const char *use = job->opts->pmi_address;
    unsigned port;

    if (use == NULL) {
        if (pmi_tcp__first_ipv4(addr, sizeof(addr)) != 0) {
            fprintf(stderr,
                    "mpirun: this machine has no IPv4 address but loopback for remote ranks "
                    "to reach; give one with --pmi-address\n");
            return COMPI_ERR_UNREACHABLE;
        }
        use = addr;
    }
    job->listen_fd = pmi_tcp__socket(&port);
    if (job->listen_fd < 0) {
        fprintf(stderr, "mpirun: cannot listen on a TCP port for the remote ranks' PMI: %s\n",
                strerror(errno));
        return COMPI_ERR_IO;
    }
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

void pmi_tcp_accept(mpirun_job_t *job)
{
    for (;;) {
        int fd = accept4(job->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        pmi_tcp_conn_t *c = NULL;

        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return; /* EAGAIN: all taken; anything else: try again on the next poll */
        }
        for (int i = 0; i < PMI_TCP_PENDING_MAX && c == NULL; i++)
            if (job->pending[i].fd < 0)
                c = &job->pending[i];
        if (c == NULL) {
            char peer[64];

            pmi_tcp__peer(fd, peer, sizeof(peer));
            fprintf(stderr,
                    "mpirun: PMI connection from %s refused: %d connections have not said "
                    "which rank they are\n",
                    peer, PMI_TCP_PENDING_MAX);
            close(fd);
            continue;
        }
        c->fd = fd;
        pmi_wire_reader_init(&c->reader);
        pmi_tcp__peer(fd, c->peer, sizeof(c->peer));
    }
}

static void pmi_tcp__drop(pmi_tcp_conn_t *c)
{
    close(c->fd);
    c->fd = -1;
}

/* the rank the first line names, or NULL after printing why the connection is refused */
static mpirun_rank_t *pmi_tcp__identify(mpirun_job_t *job, pmi_tcp_conn_t *c, const char *line,
                                        size_t n, int truncated)
{
    pmi_wire_msg_t msg;
    const char *cmd;
    int id;

    if (truncated || pmi_wire_parse(line, n, &msg) != COMPI_OK ||
        (cmd = pmi_wire_cmd(&msg)) == NULL || strcmp(cmd, "initack") != 0 ||
        pmi_wire_get_int(&msg, "pmiid", &id) != COMPI_OK) {
        fprintf(stderr,
                "mpirun: PMI connection from %s refused: its first line is not "
                "'cmd=initack pmiid=N' but '%.100s'\n",
                c->peer, line);
        return NULL;
    }
    if (id < 0 || id >= job->n || !job->ranks[id].remote) {
        fprintf(stderr,
                "mpirun: PMI connection from %s refused: id %d is not a rank started "
                "through the launch agent\n",
                c->peer, id);
        return NULL;
    }
    if (job->ranks[id].pmi_attached) {
        fprintf(stderr, "mpirun: PMI connection from %s refused: rank %d is already connected\n",
                c->peer, id);
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
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            if (!job->terminating)
                fprintf(stderr,
                        "mpirun: PMI connection from %s closed before it said which rank "
                        "it is\n",
                        c->peer);
            pmi_tcp__drop(c);
        }
        return;
    }
    r = pmi_tcp__identify(job, c, line, (size_t)n, truncated);
    if (r == NULL) {
        pmi_tcp__drop(c);
        return;
    }
    pmi_server_attach(job, r, c->fd, &c->reader);
    c->fd = -1;
    if (++job->nconnected == job->nremote)
        pmi_tcp_close(job);
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
