/*
 * dynproc_api.c -- dynamic processes: MPI_Comm_spawn, MPI_Comm_spawn_multiple,
 * MPI_Comm_get_parent, MPI_Comm_disconnect, ports (MPI_Open_port, MPI_Close_port,
 * MPI_Comm_accept, MPI_Comm_connect), names (MPI_Publish_name, MPI_Unpublish_name,
 * MPI_Lookup_name) and MPI_Comm_join.
 *
 * All of it needs compi's mpirun, which starts the new processes and holds the keys
 * through which two groups' roots meet (core/comm/dynproc.c).  Started otherwise (a
 * singleton, Hydra, a PMIx launcher) every call here fails at once with MPI_ERR_SPAWN
 * (spawn) or MPI_ERR_PORT (ports, names, join), saying why.  The keys, all in mpirun's
 * key-value space:
 *
 *   spawn    the parents' root picks P = "dyn.<its global id>.<count>"; parents publish
 *            under P.p and children (COMPI_PARENT=P) under P.c
 *   ports    "compi-port:<universe>:<global id>:<count>" = PORT; PORT holds "open" or
 *            "closed"; the n-th connect (fetch_add on PORT.n) publishes PORT.c<n> and
 *            meets the n-th accept (fetch_add on PORT.a), which publishes PORT.a<n>.
 *            The name goes on with ":<IPv4 address>:<TCP port>" of a socket the opening
 *            process listens on: a connect from another mpirun job (PORT's universe is
 *            not its own) reaches it there, and an accept rooted at that process takes
 *            whichever comes first, a connection on the socket or a connect of its own
 *            job (PORT.n ahead of PORT.a); the two roots swap their groups' records
 *            over the connection (core/comm/dynproc.c)
 *   names    "svc.<service name in hex>" holds the port name ("" once unpublished)
 *   join     each side writes its global id and a count of its joins on the socket; both
 *            then name the keys "join.<lower id>.<its count>.<higher id>.<its count>"
 *            plus ".lo" or ".hi"
 *
 * The entry points are generated (core/mpi/gen/dynproc.c, included last): they check the
 * communicator and its root, the output pointers, port and service names, hints and the
 * descriptor of a join; the arguments significant only at the root (a spawn's commands,
 * an accept's port name) are checked here, at the root.
 *
 * Ownership: the parent intercommunicator is the library's until the program frees or
 * disconnects it; port names are the caller's strings.
 */
#include "core/comm/comm.h"
#include "core/comm/comm_coll.h"
#include "core/comm/dynproc.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/pmi.h"
#include "core/runtime/pmi_wire.h"
#include "core/runtime/rte.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <mpi.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* the parents' intercommunicator: its handle and object (the program may free it) */
static MPI_Comm parent_handle = MPI_COMM_NULL;
static compi_comm_t *parent_obj;
static int dyn_count; /* spawns, ports and joins this process started: unique key parts */

/* why nothing dynamic works here */
static const char *dyn_why(void)
{
    return rte_proc.singleton
               ? "this process was started without mpirun (a singleton); dynamic processes "
                 "need compi's mpirun"
               : "dynamic processes need compi's mpirun with every rank on its host; this "
                 "process was started by another launcher (Hydra, a PMIx launcher) or in a job "
                 "with ranks on other hosts";
}

/* what every rooted call (spawn, accept, connect) does once its arguments are checked:
   the output set to MPI_COMM_NULL, and a launcher that can do it (else `refused`, with
   `what` and the reason) */
static int dyn_rooted(const char *fn, compi_comm_t *c, MPI_Comm *out, int refused, const char *what)
{
    *out = MPI_COMM_NULL;
    if (!rte_dynamic()) {
        return mpi_err_raise(c, refused, fn, "%s: %s", what, dyn_why());
    }
    return MPI_SUCCESS;
}

/* the MPI class of what a join returned at a member that is not the root */
static int dyn_class(compi_status_t st, int fallback)
{
    return st == COMPI_ERR_NO_MEMORY ? MPI_ERR_NO_MEM : fallback;
}

/* ---- spawn -------------------------------------------------------------------------- */

typedef struct spawn_arg {
    int ncmds;
    pmi_spawn_cmd_t *cmds;
    char key[128];
    char why[512];
    int bad_class; /* the root's arguments were wrong: this class, else 0 */
    int base, size;
} spawn_arg_t;

static compi_status_t spawn_prepare(void *arg, char *mine, char *theirs, size_t len)
{
    spawn_arg_t *a = arg;
    int total = 0;

    /* the status every member sees: INVALID_PARAM becomes MPI_ERR_ARG (spawn_class) */
    if (a->bad_class != 0) {
        return a->bad_class == MPI_ERR_ARG      ? COMPI_ERR_INVALID_PARAM
               : a->bad_class == MPI_ERR_NO_MEM ? COMPI_ERR_NO_MEMORY
                                                : COMPI_ERR_NOT_FOUND;
    }
    for (int c = 0; c < a->ncmds; c++) {
        total += a->cmds[c].maxprocs;
    }
    if (total == 0) {
        snprintf(a->why, sizeof(a->why), "no process to start (every maxprocs is 0)");
        return COMPI_ERR_NOT_FOUND;
    }
    snprintf(a->key, sizeof(a->key), "dyn.%d.%d", rte_peer_gid(rte_proc.world_rank), dyn_count++);
    snprintf(mine, len, "%s.p", a->key);
    snprintf(theirs, len, "%s.c", a->key);
    return COMPI_OK;
}

static compi_status_t spawn_between(void *arg)
{
    spawn_arg_t *a = arg;

    return pmi_spawn(a->ncmds, a->cmds, a->key, &a->base, &a->size, a->why, sizeof(a->why));
}

/* "path": the first of its directories (':' between them; a relative one is taken from
   wdir when given, else from here) holding an executable `command` without a '/' names
   it in prog[len] as an absolute file; prog stays "" when none does (PATH, as without
   the key) */
static void spawn_path(MPI_Info info, const char *command, const char *wdir, char *prog, size_t len)
{
    char path[MPI_MAX_INFO_VAL + 1], cand[PATH_MAX + 1], cwd[PATH_MAX + 1];
    int flag = 0;

    prog[0] = '\0';
    if (strchr(command, '/') != NULL ||
        PMPI_Info_get(info, "path", MPI_MAX_INFO_VAL, path, &flag) != MPI_SUCCESS || !flag) {
        return;
    }
    for (char *save = NULL, *d = strtok_r(path, ":", &save); d != NULL;
         d = strtok_r(NULL, ":", &save)) {
        const char *pre = "", *mid = "";
        if (d[0] != '/' && wdir != NULL && wdir[0] == '/') {
            pre = wdir;
        } else if (d[0] != '/') {
            if (getcwd(cwd, sizeof(cwd)) == NULL) {
                continue;
            }
            pre = cwd;
            mid = wdir != NULL ? wdir : "";
        }
        int n = snprintf(cand, sizeof(cand), "%s%s%s%s%s/%s", pre, pre[0] != '\0' ? "/" : "", mid,
                         mid[0] != '\0' ? "/" : "", d, command);
        if (n > 0 && (size_t)n < sizeof(cand) && (size_t)n < len && access(cand, X_OK) == 0) {
            memcpy(prog, cand, (size_t)n + 1);
            return;
        }
    }
}

/* the info keys compi honours: "wdir", "path" (prog: see spawn_path), and "host" naming
   this machine */
static int spawn_info(const char *fn, compi_comm_t *c, MPI_Info info, pmi_spawn_cmd_t *cmd,
                      char *wdir, size_t len, char *prog, size_t plen, spawn_arg_t *a)
{
    char host[MPI_MAX_INFO_VAL + 1], me[256] = "";
    int flag = 0;

    prog[0] = '\0';
    if (info == MPI_INFO_NULL) {
        return MPI_SUCCESS;
    }
    if (PMPI_Info_get(info, "wdir", (int)len - 1, wdir, &flag) != MPI_SUCCESS) {
        return mpi_err_raise(c, MPI_ERR_INFO, fn, "invalid info object");
    }
    cmd->wdir = flag ? wdir : NULL;
    spawn_path(info, cmd->argv[0], cmd->wdir, prog, plen);
    PMPI_Info_get(info, "host", MPI_MAX_INFO_VAL, host, &flag);
    gethostname(me, sizeof(me) - 1);
    if (flag && strcmp(host, me) != 0 && strcmp(host, "localhost") != 0 &&
        strcmp(host, rte_proc.hostname) != 0) {
        snprintf(a->why, sizeof(a->why),
                 "info host=%.200s: compi spawns on this host (%.200s) only", host, me);
        a->bad_class = MPI_ERR_SPAWN;
    }
    return MPI_SUCCESS;
}

static int spawn_common(const char *fn, int count, char *commands[], char **argvs[],
                        const int maxprocs[], const MPI_Info infos[], int root, compi_comm_t *c,
                        MPI_Comm *intercomm, int errcodes[])
{
    compi_comm_t *ic = NULL;
    spawn_arg_t a = {.ncmds = count};
    char(*wdirs)[MPI_MAX_INFO_VAL + 1] = NULL;
    char(*progs)[PATH_MAX + 1] = NULL;
    char **argv_all = NULL;
    int rc = dyn_rooted(fn, c, intercomm, MPI_ERR_SPAWN, "cannot spawn"), total = 0;

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (c->rank == root) {
        /* wrong arguments at the root still take every member through the meeting, which
           then fails everywhere alike */
        if (count <= 0 || commands == NULL || maxprocs == NULL) {
            a.bad_class = MPI_ERR_ARG;
            snprintf(a.why, sizeof(a.why), "count=%d, commands or maxprocs NULL", count);
            a.ncmds = 0;
        }
        for (int i = 0; a.bad_class == 0 && i < count; i++) {
            total += maxprocs[i] > 0 ? maxprocs[i] : 0;
            if (commands[i] == NULL || commands[i][0] == '\0' || maxprocs[i] < 0) {
                a.bad_class = MPI_ERR_ARG;
                snprintf(a.why, sizeof(a.why), "command %d: %s", i,
                         maxprocs[i] < 0 ? "maxprocs is negative" : "no program named");
            }
        }
        a.cmds = calloc((size_t)(count > 0 ? count : 1), sizeof(*a.cmds));
        wdirs = calloc((size_t)(count > 0 ? count : 1), sizeof(*wdirs));
        progs = calloc((size_t)(count > 0 ? count : 1), sizeof(*progs));
        if (a.cmds == NULL || wdirs == NULL || progs == NULL) {
            a.bad_class = MPI_ERR_NO_MEM;
        }
        /* every command's argv: its program, then the user's arguments */
        int nargs = 0;
        for (int i = 0; a.bad_class == 0 && i < count; i++) {
            nargs += 2;
            for (char **p = argvs != NULL ? argvs[i] : NULL; p != NULL && *p != NULL; p++) {
                nargs++;
            }
        }
        if (a.bad_class == 0 && (argv_all = calloc((size_t)nargs + 1, sizeof(char *))) == NULL) {
            a.bad_class = MPI_ERR_NO_MEM;
        }
        for (int i = 0, k = 0; a.bad_class == 0 && i < count; i++) {
            a.cmds[i].argv = &argv_all[k];
            a.cmds[i].maxprocs = maxprocs[i];
            a.cmds[i].appnum = i;
            int k0 = k;
            argv_all[k++] = commands[i];
            for (char **p = argvs != NULL ? argvs[i] : NULL; p != NULL && *p != NULL; p++) {
                argv_all[k++] = *p;
            }
            argv_all[k++] = NULL;
            rc = spawn_info(fn, c, infos != NULL ? infos[i] : MPI_INFO_NULL, &a.cmds[i], wdirs[i],
                            sizeof(wdirs[i]), progs[i], sizeof(progs[i]), &a);
            if (rc != MPI_SUCCESS) {
                a.bad_class = rc;
            }
            if (progs[i][0] != '\0') {
                argv_all[k0] = progs[i]; /* found through "path" */
            }
        }
        /* commands that start no process are left out */
        int kept = 0;
        for (int i = 0; a.bad_class == 0 && i < count; i++) {
            if (a.cmds[i].maxprocs > 0) {
                a.cmds[kept++] = a.cmds[i];
            }
        }
        if (a.bad_class == 0) {
            a.ncmds = kept;
        }
    }
    static const comm_dyn_ops_t ops = {.prepare = spawn_prepare, .between = spawn_between};
    compi_status_t st = comm_dyn_join(c, root, &ops, &a, &ic);
    free(argv_all);
    free(a.cmds);
    free(wdirs);
    free(progs);
    int fill = c->rank == root ? total : (ic != NULL ? ic->size : 0);
    if (errcodes != MPI_ERRCODES_IGNORE) {
        for (int i = 0; i < fill; i++) {
            errcodes[i] = st == COMPI_OK ? MPI_SUCCESS : MPI_ERR_SPAWN;
        }
    }
    if (st != COMPI_OK) {
        if (c->rank != root) {
            return mpi_err_raise(
                c, st == COMPI_ERR_INVALID_PARAM ? MPI_ERR_ARG : dyn_class(st, MPI_ERR_SPAWN), fn,
                "the spawn at the root (rank %d) failed", root);
        }
        if (a.bad_class != 0) {
            return mpi_err_raise(c, a.bad_class, fn, "%s", a.why);
        }
        return mpi_err_raise(c, dyn_class(st, MPI_ERR_SPAWN), fn, "cannot spawn: %s",
                             a.why[0] ? a.why : compi_status_string(st));
    }
    snprintf(ic->name, sizeof(ic->name), "(intercommunicator to spawned processes)");
    *intercomm = ic->handle;
    return MPI_SUCCESS;
}

static int comm_spawn_impl(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                           compi_comm_t *comm, MPI_Comm *intercomm, int array_of_errcodes[],
                           const char *fn)
{
    char *cmd = (char *)command;
    char **argvs[1] = {argv};

    return spawn_common(fn, 1, &cmd, argvs, &maxprocs, &info, root, comm, intercomm,
                        array_of_errcodes);
}

static int comm_spawn_multiple_impl(int count, char *array_of_commands[], char **array_of_argv[],
                                    const int array_of_maxprocs[], const MPI_Info array_of_info[],
                                    int root, compi_comm_t *comm, MPI_Comm *intercomm,
                                    int array_of_errcodes[], const char *fn)
{
    return spawn_common(fn, count, array_of_commands, array_of_argv, array_of_maxprocs,
                        array_of_info, root, comm, intercomm, array_of_errcodes);
}

/* ---- the children's side ------------------------------------------------------------ */

static compi_status_t child_prepare(void *arg, char *mine, char *theirs, size_t len)
{
    const char *key = arg;

    snprintf(mine, len, "%s.c", key);
    snprintf(theirs, len, "%s.p", key);
    return COMPI_OK;
}

compi_status_t mpi_dyn_init(void)
{
    static const comm_dyn_ops_t ops = {.prepare = child_prepare};
    const char *key = rte_parent_key();
    compi_comm_t *ic;
    compi_status_t st;

    if (key == NULL) {
        return COMPI_OK;
    }
    st = comm_dyn_join(comm_world(), 0, &ops, (void *)key, &ic);
    if (st != COMPI_OK) {
        return st;
    }
    snprintf(ic->name, sizeof(ic->name), "(parent intercommunicator)");
    parent_obj = ic;
    parent_handle = ic->handle;
    return COMPI_OK;
}

/* the parent intercommunicator while the program has not freed it */
static compi_comm_t *dyn_parent(void)
{
    if (parent_obj != NULL && comm_from_handle(parent_handle) != parent_obj) {
        parent_obj = NULL;
        parent_handle = MPI_COMM_NULL;
    }
    return parent_obj;
}

static int comm_get_parent_impl(MPI_Comm *parent, const char *fn)
{
    (void)fn;
    *parent = dyn_parent() != NULL ? parent_handle : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

static int comm_disconnect_impl(MPI_Comm *comm, compi_comm_t *c, const char *fn)
{
    compi_status_t st;

    if (comm_is_predefined(c)) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn, "%s cannot be disconnected", c->name);
    }
    /* every member's traffic on it is over once all have come here */
    if (comm_is_inter(c)) {
        st = comm_dyn_sync(c);
    } else {
        comm_coll_set_t set = comm_coll_whole(c);
        uint32_t dummy;
        st = comm_coll_allreduce_max_u32(&set, 0, &dummy);
    }
    if (st != COMPI_OK) {
        return mpi_err_raise(c, mpi_err_class_of(st), fn, "cannot synchronise: %s",
                             compi_status_string(st));
    }
    if (c == parent_obj) {
        parent_obj = NULL;
        parent_handle = MPI_COMM_NULL;
    }
    return PMPI_Comm_free(comm);
}

/* ---- ports and names ---------------------------------------------------------------- */

#define PORT_PREFIX "compi-port:"

/* the ports this process opened, with the sockets they listen on */
#define PORT_MAX_OPEN 64
static struct port_listener {
    char name[200];
    int fd;
} port_open[PORT_MAX_OPEN];
static int n_port_open;

/* the listening socket of port `name` when this process opened it, else -1 */
static int port_listener(const char *name)
{
    for (int i = 0; i < n_port_open; i++) {
        if (strcmp(port_open[i].name, name) == 0) {
            return port_open[i].fd;
        }
    }
    return -1;
}

/* a socket listening on every address, its port in *port_p; -1 on error */
static int port_listen(int *port_p)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t alen = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0) {
        return -1;
    }
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 16) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &alen) != 0) {
        close(fd);
        return -1;
    }
    *port_p = ntohs(a.sin_port);
    return fd;
}

/* this machine's IPv4 address as others would reach it: its name's, or when that is a
   loopback address the first other address of an interface that is up, else the loopback */
static void port_address(char *buf, size_t len)
{
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res = NULL;
    struct ifaddrs *ifs = NULL;
    char host[256] = "";

    snprintf(buf, len, "127.0.0.1");
    if (gethostname(host, sizeof(host) - 1) == 0 && getaddrinfo(host, NULL, &hints, &res) == 0) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)res->ai_addr;
        int loop = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
        if (!loop) {
            inet_ntop(AF_INET, &in->sin_addr, buf, (socklen_t)len);
        }
        freeaddrinfo(res);
        if (!loop) {
            return;
        }
    }
    if (getifaddrs(&ifs) != 0) {
        return;
    }
    for (struct ifaddrs *i = ifs; i != NULL; i = i->ifa_next) {
        if (i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_INET &&
            (i->ifa_flags & IFF_UP) != 0 && (i->ifa_flags & IFF_LOOPBACK) == 0) {
            inet_ntop(AF_INET, &((const struct sockaddr_in *)i->ifa_addr)->sin_addr, buf,
                      (socklen_t)len);
            break;
        }
    }
    freeifaddrs(ifs);
}

/* the address and TCP port a port name ends with: 0, else -1 (none) */
static int port_endpoint(const char *port, struct sockaddr_in *sa)
{
    const char *p = port + strlen(PORT_PREFIX);
    char ip[64];
    int tcp = 0, used = 0;

    /* universe, global id, count, then the address */
    for (int i = 0; i < 3; i++) {
        if ((p = strchr(p, ':')) == NULL) {
            return -1;
        }
        p++;
    }
    if (sscanf(p, "%63[0-9.]:%d%n", ip, &tcp, &used) != 2 || p[used] != '\0' || tcp <= 0 ||
        tcp > 65535) {
        return -1;
    }
    *sa = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((unsigned short)tcp)};
    return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -1;
}

/* checks a port name: ours, of this mpirun job; MPI_SUCCESS or a raise */
static int port_check(const char *fn, compi_comm_t *c, const char *port)
{
    size_t ulen = strlen(rte_proc.universe);

    if (!rte_dynamic()) {
        return mpi_err_raise(c, MPI_ERR_PORT, fn, "no ports: %s", dyn_why());
    }
    if (port == NULL || strncmp(port, PORT_PREFIX, strlen(PORT_PREFIX)) != 0 ||
        strlen(port) >= 200 || strpbrk(port, " \t\n=") != NULL) {
        return mpi_err_raise(c, MPI_ERR_PORT, fn, "'%.100s' is not a port name of compi",
                             port != NULL ? port : "(null)");
    }
    const char *u = port + strlen(PORT_PREFIX);
    if (strncmp(u, rte_proc.universe, ulen) != 0 || u[ulen] != ':') {
        return mpi_err_raise(c, MPI_ERR_PORT, fn,
                             "port %s belongs to another mpirun job: only MPI_Comm_connect "
                             "reaches such a port, through the address its name ends with",
                             port);
    }
    return MPI_SUCCESS;
}

/* info: no key is read */
static int open_port_impl(MPI_Info info, char *port_name, const char *fn)
{
    (void)info;
    if (!rte_dynamic()) {
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn, "no ports: %s", dyn_why());
    }
    char ip[64];
    int tcp = 0, fd = n_port_open < PORT_MAX_OPEN ? port_listen(&tcp) : -1;
    if (fd < 0) {
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn, "cannot listen for connections: %s",
                             n_port_open < PORT_MAX_OPEN ? strerror(errno) : "too many ports open");
    }
    port_address(ip, sizeof(ip));
    snprintf(port_name, MPI_MAX_PORT_NAME, PORT_PREFIX "%s:%d:%d:%s:%d", rte_proc.universe,
             rte_peer_gid(rte_proc.world_rank), dyn_count++, ip, tcp);
    compi_status_t st = rte_kvs_put(port_name, "open");
    if (st != COMPI_OK) {
        close(fd);
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn, "cannot open a port: %s",
                             compi_status_string(st));
    }
    snprintf(port_open[n_port_open].name, sizeof(port_open[0].name), "%s", port_name);
    port_open[n_port_open++].fd = fd;
    return MPI_SUCCESS;
}

/* "open", "closed", or "" when never opened */
static compi_status_t port_state(const char *port, char *state, size_t len)
{
    compi_status_t st = rte_kvs_get(port, state, len);

    if (st == COMPI_ERR_NOT_FOUND) {
        state[0] = '\0';
        return COMPI_OK;
    }
    return st;
}

static int close_port_impl(const char *port_name, const char *fn)
{
    char state[16];
    int rc = port_check(fn, NULL, port_name);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (port_state(port_name, state, sizeof(state)) != COMPI_OK || strcmp(state, "open") != 0) {
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn, "port %s is not open", port_name);
    }
    if (rte_kvs_put(port_name, "closed") != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn, "cannot close port %s", port_name);
    }
    for (int i = 0; i < n_port_open; i++) {
        if (strcmp(port_open[i].name, port_name) == 0) {
            close(port_open[i].fd);
            port_open[i] = port_open[--n_port_open];
            break;
        }
    }
    return MPI_SUCCESS;
}

typedef struct port_arg {
    const char *port;
    int accept;
    int bad; /* seen at the root: 1 the port is not open, 2 not a port of this job,
                3 its address cannot be reached (errno in err) */
    int err;
    int fd; /* the connection to another job's root, else -1 */
    char why[1024]; /* comm_dyn_ops_t.failed: why the meeting with another job failed */
} port_arg_t;

/* 1 when `port` is a port name of this mpirun job */
static int port_ours(const char *port)
{
    size_t plen = strlen(PORT_PREFIX), ulen = strlen(rte_proc.universe);

    return port != NULL && strncmp(port, PORT_PREFIX, plen) == 0 && strlen(port) < 200 &&
           strpbrk(port, " \t\n=") == NULL && strncmp(port + plen, rte_proc.universe, ulen) == 0 &&
           port[plen + ulen] == ':';
}

static compi_status_t port_prepare(void *arg, char *mine, char *theirs, size_t len)
{
    port_arg_t *a = arg;
    char key[256], state[16];
    int n;

    if (!port_ours(a->port)) {
        a->bad = 2; /* the root says why */
        return COMPI_ERR_INVALID_PARAM;
    }
    compi_status_t st = port_state(a->port, state, sizeof(state));

    if (st == COMPI_OK && strcmp(state, "open") != 0) {
        a->bad = 1;
        return COMPI_ERR_NOT_FOUND;
    }
    snprintf(key, sizeof(key), "%s.%s", a->port, a->accept ? "a" : "n");
    if (st == COMPI_OK) {
        st = rte_kvs_fetch_add(key, &n);
    }
    if (st != COMPI_OK) {
        return st;
    }
    snprintf(mine, len, "%s.%c%d", a->port, a->accept ? 'a' : 'c', n);
    snprintf(theirs, len, "%s.%c%d", a->port, a->accept ? 'c' : 'a', n);
    return COMPI_OK;
}

/* the number under `key` (a fetch_add counter), 0 when it does not exist */
static int port_count(const char *key)
{
    char val[32];

    return rte_kvs_get(key, val, sizeof(val)) == COMPI_OK ? atoi(val) : 0;
}

/* whether the root meets another job over a socket (comm_dyn_ops_t.sock): the connecting
   side sends first */
static int port_sock(void *arg, int *first)
{
    port_arg_t *a = arg;
    struct sockaddr_in sa;
    char n_key[256], a_key[256], state[16];
    int lfd, ms = 1;

    if (a->accept) {
        /* only the opener listens: elsewhere an accept meets this job's connects */
        if ((lfd = port_listener(a->port)) < 0) {
            return -1;
        }
        snprintf(n_key, sizeof(n_key), "%s.n", a->port);
        snprintf(a_key, sizeof(a_key), "%s.a", a->port);
        for (;;) {
            struct pollfd p = {.fd = lfd, .events = POLLIN};
            if (poll(&p, 1, ms) == 1) {
                int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
                if (fd >= 0) {
                    return a->fd = fd;
                }
            }
            /* a closed port, or a connect of this job waiting: port_prepare goes on */
            if (port_state(a->port, state, sizeof(state)) != COMPI_OK ||
                strcmp(state, "open") != 0 || port_count(n_key) > port_count(a_key)) {
                return -1;
            }
            ms = ms < 10 ? ms + 1 : 10;
        }
    }
    if (port_ours(a->port)) {
        return -1;
    }
    if (a->port == NULL || strncmp(a->port, PORT_PREFIX, strlen(PORT_PREFIX)) != 0 ||
        strlen(a->port) >= 200 || port_endpoint(a->port, &sa) != 0) {
        a->bad = 2;
        return -2;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        a->err = errno;
        if (fd >= 0) {
            close(fd);
        }
        a->bad = 3;
        return -2;
    }
    *first = 1;
    return a->fd = fd;
}

static void port_failed(void *arg, const char *why)
{
    port_arg_t *a = arg;

    snprintf(a->why, sizeof(a->why), "%s", why);
}

static int port_join(const char *fn, const char *port_name, int root, compi_comm_t *c,
                     MPI_Comm *newcomm, int accept)
{
    compi_comm_t *ic = NULL;
    int rc = dyn_rooted(fn, c, newcomm, MPI_ERR_PORT, "no ports");

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    port_arg_t a = {.port = port_name, .accept = accept, .fd = -1};
    static const comm_dyn_ops_t ops = {
        .prepare = port_prepare, .sock = port_sock, .failed = port_failed};
    compi_status_t st = comm_dyn_join(c, root, &ops, &a, &ic);
    if (a.fd >= 0) {
        close(a.fd);
    }
    if (st != COMPI_OK && a.why[0] != '\0') {
        return mpi_err_raise(c, MPI_ERR_PORT, fn, "port %s: %s", port_name, a.why);
    }
    if (st != COMPI_OK) {
        if (c->rank == root && a.bad == 2) {
            return port_check(fn, c, port_name);
        }
        if (c->rank == root && a.bad == 3) {
            return mpi_err_raise(c, MPI_ERR_PORT, fn,
                                 "port %s of another mpirun job: cannot reach its address: %s",
                                 port_name, strerror(a.err));
        }
        if (c->rank == root && a.fd >= 0) {
            return mpi_err_raise(c, dyn_class(st, MPI_ERR_PORT), fn,
                                 "the meeting with another mpirun job through port %s failed: %s",
                                 port_name, compi_status_string(st));
        }
        if (c->rank == root && a.bad == 1) {
            return mpi_err_raise(c, MPI_ERR_PORT, fn, "port %s is not open", port_name);
        }
        return mpi_err_raise(c, dyn_class(st, MPI_ERR_PORT), fn, "%s at the root (rank %d) failed",
                             accept ? "the accept" : "the connection", root);
    }
    *newcomm = ic->handle;
    return MPI_SUCCESS;
}

/* info (significant at the root only): no key is read */
static int comm_accept_impl(const char *port_name, MPI_Info info, int root, compi_comm_t *comm,
                            MPI_Comm *newcomm, const char *fn)
{
    (void)info;
    return port_join(fn, port_name, root, comm, newcomm, 1);
}

static int comm_connect_impl(const char *port_name, MPI_Info info, int root, compi_comm_t *comm,
                             MPI_Comm *newcomm, const char *fn)
{
    (void)info;
    return port_join(fn, port_name, root, comm, newcomm, 0);
}

/* "svc.<hex of the name>" (checked: mpi_arg_service) into key; MPI_SUCCESS or a raise */
static int service_key(const char *fn, const char *service, char *key, size_t len)
{
    if (!rte_dynamic()) {
        return mpi_err_raise(NULL, MPI_ERR_SERVICE, fn, "no name service: %s", dyn_why());
    }
    memcpy(key, "svc.", 4);
    pmi_wire_hex_encode(service, key + 4, len - 4);
    return MPI_SUCCESS;
}

/* info: no key is read (here and in the other calls on names) */
static int publish_name_impl(const char *service_name, MPI_Info info, const char *port_name,
                             const char *fn)
{
    char key[256], old[MPI_MAX_PORT_NAME];
    int rc = service_key(fn, service_name, key, sizeof(key));
    (void)info;

    if (rc == MPI_SUCCESS) {
        rc = port_check(fn, NULL, port_name);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (rte_kvs_get(key, old, sizeof(old)) == COMPI_OK && old[0] != '\0') {
        return mpi_err_raise(NULL, MPI_ERR_SERVICE, fn, "service '%s' is already published",
                             service_name);
    }
    if (rte_kvs_put(key, port_name) != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_SERVICE, fn, "cannot publish '%s'", service_name);
    }
    return MPI_SUCCESS;
}

static int unpublish_name_impl(const char *service_name, MPI_Info info, const char *port_name,
                               const char *fn)
{
    char key[256], old[MPI_MAX_PORT_NAME];
    int rc = service_key(fn, service_name, key, sizeof(key));
    (void)info;
    (void)port_name;

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (rte_kvs_get(key, old, sizeof(old)) != COMPI_OK || old[0] == '\0') {
        return mpi_err_raise(NULL, MPI_ERR_SERVICE, fn, "service '%s' is not published",
                             service_name);
    }
    if (rte_kvs_put(key, "") != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_SERVICE, fn, "cannot unpublish '%s'", service_name);
    }
    return MPI_SUCCESS;
}

static int lookup_name_impl(const char *service_name, MPI_Info info, char *port_name,
                            const char *fn)
{
    char key[256];
    int rc = service_key(fn, service_name, key, sizeof(key));
    (void)info;

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (rte_kvs_get(key, port_name, MPI_MAX_PORT_NAME) != COMPI_OK || port_name[0] == '\0') {
        port_name[0] = '\0';
        return mpi_err_raise(NULL, MPI_ERR_NAME, fn, "service '%s' is not published", service_name);
    }
    return MPI_SUCCESS;
}

/* ---- join --------------------------------------------------------------------------- */

typedef struct join_arg {
    int me, my_count, peer, peer_count;
} join_arg_t;

static compi_status_t join_prepare(void *arg, char *mine, char *theirs, size_t len)
{
    join_arg_t *a = arg;
    int lo = a->me < a->peer;
    char base[160];

    if (lo) {
        snprintf(base, sizeof(base), "join.%d.%d.%d.%d", a->me, a->my_count, a->peer,
                 a->peer_count);
    } else {
        snprintf(base, sizeof(base), "join.%d.%d.%d.%d", a->peer, a->peer_count, a->me,
                 a->my_count);
    }
    snprintf(mine, len, "%s.%s", base, lo ? "lo" : "hi");
    snprintf(theirs, len, "%s.%s", base, lo ? "hi" : "lo");
    return COMPI_OK;
}

/* writes and reads one line "compi-join <universe> <gid> <count>" on the socket */
static int join_swap(int fd, const char *out, char *in, size_t len)
{
    size_t off = 0;

    if (comm_dyn_xfer(fd, (char *)out, strlen(out), 1) != 0) {
        return -1;
    }
    /* one byte at a time: nothing after the line is taken from the program's stream */
    for (off = 0; off + 1 < len;) {
        if (comm_dyn_xfer(fd, in + off, 1, 0) != 0) {
            return -1;
        }
        if (in[off] == '\n') {
            break;
        }
        off++;
    }
    in[off] = '\0';
    return 0;
}

static int comm_join_impl(int fd, MPI_Comm *intercomm, const char *fn)
{
    char out[160], in[160], universe[80];
    join_arg_t a = {.me = rte_peer_gid(rte_proc.world_rank)};
    compi_comm_t *ic = NULL;

    *intercomm = MPI_COMM_NULL;
    if (!rte_dynamic()) {
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn, "cannot join: %s", dyn_why());
    }
    a.my_count = dyn_count++;
    snprintf(out, sizeof(out), "compi-join %s %d %d\n", rte_proc.universe, a.me, a.my_count);
    if (join_swap(fd, out, in, sizeof(in)) != 0) {
        return mpi_err_raise(NULL, MPI_ERR_OTHER, fn, "cannot exchange on descriptor %d: %s", fd,
                             strerror(errno));
    }
    if (sscanf(in, "compi-join %79s %d %d", universe, &a.peer, &a.peer_count) != 3 ||
        strcmp(universe, rte_proc.universe) != 0 || a.peer == a.me) {
        return mpi_err_raise(NULL, MPI_ERR_PORT, fn,
                             "the other end of descriptor %d is not a process of this mpirun "
                             "job calling MPI_Comm_join",
                             fd);
    }
    static const comm_dyn_ops_t ops = {.prepare = join_prepare};
    compi_status_t st = comm_dyn_join(comm_from_handle(MPI_COMM_SELF), 0, &ops, &a, &ic);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "cannot join: %s",
                             compi_status_string(st));
    }
    *intercomm = ic->handle;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/dynproc.c"
