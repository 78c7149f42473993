/*
 * job.c -- the ranks as processes: start them, judge how each one ends, and take the whole
 * job down when one fails.
 *
 * A rank fails the job when it is killed by a signal, exits non-zero, exits (any status)
 * after PMI init without PMI finalize, or calls abort; a spawned process also when it exits
 * before PMI init (its parents would wait for it for ever).  mpirun then prints one line naming
 * the rank and the cause, SIGTERMs the others and SIGKILLs whoever is left a second later.
 * Ranks also die with mpirun itself (PR_SET_PDEATHSIG), so none outlives it.
 *
 * A rank on another host (hosts.c) is started through the launch agent (agent.c): its
 * process here is the agent's, whose exit is the rank's exit and which gets the SIGTERM
 * and SIGKILL.  It speaks PMI over TCP (pmi_tcp.c) instead of a socketpair, is never
 * bound, and is oversubscribed only when --oversubscribe says so (mpirun cannot count
 * another host's cores; without the flag the rank compares them itself, rte.c).  How far
 * a signal to the agent reaches is the agent's affair: ssh, killed, leaves the remote
 * process to notice its closed connections.
 */
#include "core/runtime/launcher/launcher.h"
#include "core/runtime/launcher/libdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* seconds between SIGTERM and SIGKILL when the job goes down */
#define JOB_KILL_GRACE 1.0

double mpirun_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void make_jobid(char *buf, size_t len)
{
    unsigned int rnd;

    if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
        rnd = (unsigned int)time(NULL) ^ (unsigned int)getpid() * 2654435761u;
    snprintf(buf, len, "compi.%ld.%08x", (long)getpid(), rnd);
}

/* places the ranks on the hosts and numbers them within each machine */
static compi_status_t job__place(mpirun_job_t *job)
{
    const mpirun_hosts_t *h = &job->opts->hosts;
    int *host_of, *count;
    compi_status_t st;

    if (h->n == 0) {
        for (int i = 0; i < job->n; i++) {
            job->ranks[i].local_rank = i;
            job->ranks[i].local_size = job->n;
        }
        job->nlocal = job->n;
        return COMPI_OK;
    }
    host_of = calloc((size_t)job->n, sizeof(*host_of));
    count = calloc((size_t)h->n, sizeof(*count));
    st = host_of != NULL && count != NULL ? hosts_map(h, job->n, job->opts->map_by, host_of)
                                          : COMPI_ERR_NO_MEMORY;
    for (int i = 0; st == COMPI_OK && i < job->n; i++) {
        mpirun_rank_t *r = &job->ranks[i];

        r->host = &h->host[host_of[i]];
        r->remote = !r->host->local;
        r->local_rank = count[r->host->node]++; /* node < h->n */
        if (r->remote)
            job->nremote++;
        else
            job->nlocal++;
    }
    for (int i = 0; st == COMPI_OK && i < job->n; i++)
        job->ranks[i].local_size = count[job->ranks[i].host->node];
    free(host_of);
    free(count);
    return st;
}

static void job__rank_init(mpirun_job_t *job, int gid, int sub, int rank)
{
    mpirun_rank_t *r = &job->ranks[gid];

    r->rank = rank;
    r->gid = gid;
    r->sub = sub;
    r->pmi_fd = -1;
    pmi_wire_reader_init(&r->reader);
    iof_stream_init(&r->out, -1, rank, 0);
    iof_stream_init(&r->err, -1, rank, 1);
}

static int cores_available(void);

compi_status_t job_create(mpirun_job_t *job, const mpirun_opts_t *opts)
{
    compi_status_t st;

    memset(job, 0, sizeof(*job));
    job->opts = opts;
    job->n = opts->np;
    job->cap = opts->np + MPIRUN_MAX_SPAWNED;
    job->listen_fd = -1;
    for (int i = 0; i < PMI_TCP_PENDING_MAX; i++)
        job->pending[i].fd = -1;
    /* calloc: the pages of entries never used are never touched */
    job->ranks = calloc((size_t)job->cap, sizeof(*job->ranks));
    if (job->ranks == NULL)
        return COMPI_ERR_NO_MEMORY;
    for (int i = 0; i < job->n; i++)
        job__rank_init(job, i, 0, i);
    make_jobid(job->jobid, sizeof(job->jobid));
    job->nsubs = 1;
    job->subs[0] = (mpirun_sub_t){.base = 0, .n = job->n};
    snprintf(job->subs[0].jobid, sizeof(job->subs[0].jobid), "%s", job->jobid);
    job->universe = opts->hosts.n > 0 ? hosts_total_slots(&opts->hosts) : cores_available();
    if (job->universe < job->n)
        job->universe = job->n;
    st = job__place(job);
    if (st == COMPI_OK)
        st = pmi_server_create(job);
    if (st == COMPI_OK && job->nremote > 0)
        st = pmi_tcp_listen(job);
    return st;
}

/* "rank 3 (pid 123)", or "rank 3 (pid 123, on h2 through ssh)" for a remote rank, or
   "rank 1 of spawned world 2 (pid 123)" */
static void job__label(const mpirun_job_t *job, const mpirun_rank_t *r, char *buf, size_t len)
{
    if (r->sub > 0)
        snprintf(buf, len, "rank %d of spawned world %d (pid %ld)", r->rank, r->sub, (long)r->pid);
    else if (r->remote)
        snprintf(buf, len, "rank %d (pid %ld, on %s through %s)", r->rank, (long)r->pid,
                 r->host->name, job->opts->agent[0]);
    else
        snprintf(buf, len, "rank %d (pid %ld)", r->rank, (long)r->pid);
}

static int cores_available(void)
{
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return (int)sysconf(_SC_NPROCESSORS_ONLN);
    return CPU_COUNT(&set);
}

static void set_env_int(const char *name, int value)
{
    char num[16];

    snprintf(num, sizeof(num), "%d", value);
    setenv(name, num, 1);
}

/*
 * In the child, between fork and exec: signals, standard streams.  Only async-signal-safe
 * calls would be strictly allowed after fork in a threaded parent; mpirun has a single
 * thread, so setenv is fine in what follows.
 */
static void child_setup(int rank, int in_fd, int out_fd, int err_fd, pid_t parent)
{
    sigset_t none;
    int fd;

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127); /* mpirun died before the prctl took effect */

    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    if (in_fd >= 0) {
        dup2(in_fd, 0);
    } else if (rank != 0) {
        fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && fd != 0) {
            dup2(fd, 0);
            close(fd);
        }
    }
    if (out_fd >= 0)
        dup2(out_fd, 1);
    if (err_fd >= 0)
        dup2(err_fd, 2);
}

static void child_exec_failed(int errpipe)
{
    int e = errno;

    if (write(errpipe, &e, sizeof(e)) < 0)
        _exit(127);
    _exit(e == ENOENT ? 127 : 126);
}

/*
 * compi's library folder first in a rank's LD_LIBRARY_PATH: a program built against
 * another MPI of the same ABI (MPICH's libmpi.so.12 or libmpich.so.12, or the standard
 * ABI's libmpi_abi.so.1) loads compi's library, also when its RUNPATH names the other
 * MPI's folder (LD_LIBRARY_PATH comes before RUNPATH; an old-style RPATH comes before
 * both and still pins it: compi_info --abi tells).
 */
static void lib_path_first(void)
{
    char dir[PATH_MAX];
    if (compi_lib_dir(dir, sizeof dir) != 0)
        return;
    const char *old = getenv("LD_LIBRARY_PATH");
    if (old == NULL || old[0] == '\0') {
        setenv("LD_LIBRARY_PATH", dir, 1);
        return;
    }
    size_t len = strlen(dir) + strlen(old) + 2;
    char *v = malloc(len);
    if (v == NULL)
        return;
    snprintf(v, len, "%s:%s", dir, old);
    setenv("LD_LIBRARY_PATH", v, 1);
    free(v);
}

/* a rank on this machine: environment and PMI descriptor, then the program */
static void child_exec(mpirun_job_t *job, const mpirun_rank_t *r, int pmi_fd, int out_fd,
                       int err_fd, int errpipe, pid_t parent)
{
    const mpirun_opts_t *o = job->opts;
    const mpirun_sub_t *sub = &job->subs[r->sub];
    char **argv = r->cmd != NULL ? r->cmd->argv : o->prog_argv;

    child_setup(r->gid, -1, out_fd, err_fd, parent);
    fcntl(pmi_fd, F_SETFD, 0); /* the one descriptor the rank keeps across exec */

    unsetenv("PMI_PORT");
    unsetenv("PMI_ID");
    set_env_int("PMI_FD", pmi_fd);
    set_env_int("PMI_RANK", r->rank);
    set_env_int("PMI_SIZE", sub->n);
    /* Hydra's names for the local rank, which MPICH-built programs read */
    set_env_int("MPI_LOCALRANKID", r->local_rank);
    set_env_int("MPI_LOCALNRANKS", r->local_size);
    setenv("COMPI_JOBID", sub->jobid, 1);
    /* the whole job's id: the library may spawn (pmi.c) and names shared memory after it;
       not when some ranks run on other hosts, which cannot (a world decides alike) */
    if (job->nremote == 0)
        setenv("COMPI_UNIVERSE", job->jobid, 1);
    else
        unsetenv("COMPI_UNIVERSE");
    set_env_int("COMPI_GID_BASE", sub->base);
    if (r->cmd != NULL) {
        set_env_int("COMPI_APPNUM", r->cmd->appnum);
        if (r->cmd->wdir != NULL && chdir(r->cmd->wdir) != 0)
            child_exec_failed(errpipe);
    } else {
        unsetenv("COMPI_APPNUM");
        unsetenv("COMPI_PARENT");
    }
    /* always set, so a rank bound to one core later still knows the whole picture */
    setenv("COMPI_OVERSUBSCRIBED", job->nlocal > cores_available() ? "1" : "0", 1);
    bind_apply(r); /* after the count above, which wants our whole set */
    if (o->coll_config != NULL)
        setenv("COMPI_COLL_CONFIG", o->coll_config, 1);
    if (!o->keep_lib_path)
        lib_path_first();
    for (int i = 0; i < o->nenv; i++)
        putenv(o->env[i]);

    execvp(argv[0], argv);
    child_exec_failed(errpipe);
}

/*
 * a rank on another host: the launch agent, whose command line carries the environment
 * and whose stdin (in_fd) carries the job's secret
 */
static void child_exec_agent(int rank, char **argv, int in_fd, int out_fd, int err_fd,
                             int errpipe, pid_t parent)
{
    static const char *const ours[] = {"PMI_FD", "PMI_PORT", "PMI_ID", "PMI_RANK", "PMI_SIZE"};

    child_setup(rank, in_fd, out_fd, err_fd, parent);
    /* an agent that passes its environment on (ip netns exec) must not pass stale PMI */
    for (size_t k = 0; k < sizeof(ours) / sizeof(ours[0]); k++)
        unsetenv(ours[k]);
    execvp(argv[0], argv);
    child_exec_failed(errpipe);
}

/*
 * The stdin of a remote rank: a pipe that starts with the user's variables for the rank
 * (agent_stdin_env: the remote shell reads and exports them before it starts the
 * program), then the job's secret (the rank reads that line in its PMI init), then
 * mpirun's stdin for rank 0, nothing for the others.  The pipe is made big enough for the
 * first two, so writing them never blocks.  For rank 0, a small helper process copies
 * mpirun's stdin after them and dies with mpirun.  Returns the read end (-1 with why
 * filled on failure).
 */
static int job__agent_stdin(const mpirun_job_t *job, const mpirun_rank_t *r, char *why,
                            size_t len)
{
    char *env = agent_stdin_env(job, r, why, len), *head = NULL;
    int p[2], hlen, cap;
    pid_t parent = getpid(), pid;

    if (env == NULL)
        return -1;
    hlen = asprintf(&head, "%s%s\n", env, job->secret);
    free(env);
    if (hlen < 0) {
        snprintf(why, len, "out of memory building the stdin of rank %d", r->rank);
        return -1;
    }
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(why, len, "cannot hand rank %d the job's secret: %s", r->rank, strerror(errno));
        free(head);
        return -1;
    }
    cap = fcntl(p[1], F_GETPIPE_SZ);
    if (cap >= 0 && cap < hlen)
        cap = fcntl(p[1], F_SETPIPE_SZ, hlen);
    if (cap < hlen) {
        snprintf(why, len,
                 "the variables for rank %d (-x, --mca, COMPI_*) take %d bytes on the agent's "
                 "stdin, more than a pipe holds here",
                 r->rank, hlen);
        free(head);
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (write(p[1], head, (size_t)hlen) != hlen) {
        snprintf(why, len, "cannot hand rank %d the job's secret: %s", r->rank, strerror(errno));
        free(head);
        close(p[0]);
        close(p[1]);
        return -1;
    }
    free(head);
    if (r->rank == 0 && (pid = fork()) == 0) {
        char buf[65536];
        ssize_t n;

        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        signal(SIGPIPE, SIG_DFL);
        if (dup2(p[1], 1) < 0)
            _exit(1);
        close_range(3, ~0U, 0); /* mpirun's sockets and pipes are not ours to hold */
        while ((n = read(0, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
            if (n > 0 && write(1, buf, (size_t)n) != n)
                break;
        _exit(0);
    }
    close(p[1]);
    return p[0];
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static compi_status_t spawn_one(mpirun_job_t *job, mpirun_rank_t *r)
{
    int sv[2] = {-1, -1}, outp[2] = {-1, -1}, errp[2] = {-1, -1}, ep[2] = {-1, -1};
    int in_fd = -1;
    char why[512];
    char **agent = NULL;
    ssize_t got;
    pid_t pid, self = getpid();
    int e = 0;

    if (r->remote && ((agent = agent_argv(job, r, why, sizeof(why))) == NULL ||
                      (in_fd = job__agent_stdin(job, r, why, sizeof(why))) < 0))
        goto err;
    if ((!r->remote && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) ||
        pipe2(ep, O_CLOEXEC) != 0 ||
        (job->opts->tag_output && (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0))) {
        snprintf(why, sizeof(why), "cannot create pipes for rank %d: %s", r->rank, strerror(errno));
        goto err;
    }
    pid = fork();
    if (pid < 0) {
        snprintf(why, sizeof(why), "cannot fork rank %d: %s", r->rank, strerror(errno));
        goto err;
    }
    if (pid == 0 && r->remote)
        child_exec_agent(r->rank, agent, in_fd, outp[1], errp[1], ep[1], self);
    if (pid == 0)
        child_exec(job, r, sv[1], outp[1], errp[1], ep[1], self);

    agent_argv_free(agent);
    if (in_fd >= 0)
        close(in_fd);
    r->pid = pid;
    r->alive = 1;
    job->nalive++;
    close(ep[1]);
    if (!r->remote) {
        close(sv[1]);
        r->pmi_fd = sv[0];
        set_nonblock(r->pmi_fd);
    }
    if (job->opts->tag_output) {
        close(outp[1]);
        close(errp[1]);
        set_nonblock(outp[0]);
        set_nonblock(errp[0]);
        iof_stream_init(&r->out, outp[0], r->rank, 0);
        iof_stream_init(&r->err, errp[0], r->rank, 1);
        r->out.sub = r->err.sub = r->sub;
    }

    /* the exec-error pipe closes without data when exec succeeds */
    do {
        got = read(ep[0], &e, sizeof(e));
    } while (got < 0 && errno == EINTR);
    close(ep[0]);
    if (got == (ssize_t)sizeof(e)) {
        r->exec_failed = 1;
        if (r->remote)
            snprintf(why, sizeof(why), "cannot execute the launch agent '%s' for rank %d: %s",
                     job->opts->agent[0], r->rank, strerror(e));
        else
            snprintf(why, sizeof(why), "cannot execute '%s': %s",
                     r->cmd != NULL ? r->cmd->argv[0] : job->opts->prog_argv[0], strerror(e));
        job_terminate(job, e == ENOENT ? 127 : 126, why);
        return COMPI_ERR_IO;
    }
    return COMPI_OK;

err:
    agent_argv_free(agent);
    if (in_fd >= 0)
        close(in_fd);
    for (int i = 0; i < 2; i++) {
        int *fds[] = {sv, outp, errp, ep};

        for (size_t k = 0; k < sizeof(fds) / sizeof(fds[0]); k++)
            if (fds[k][i] >= 0)
                close(fds[k][i]);
    }
    job_terminate(job, 1, why);
    return COMPI_ERR_IO;
}

compi_status_t job_spawn(mpirun_job_t *job)
{
    for (int i = 0; i < job->n; i++) {
        compi_status_t st = spawn_one(job, &job->ranks[i]);

        if (st != COMPI_OK)
            return st;
    }
    return COMPI_OK;
}

void job_cmds_free(mpirun_cmd_t *cmds, int ncmds)
{
    for (int c = 0; cmds != NULL && c < ncmds; c++) {
        for (char **a = cmds[c].argv; a != NULL && *a != NULL; a++)
            free(*a);
        free(cmds[c].argv);
        free(cmds[c].wdir);
    }
    free(cmds);
}

/* 1 when `prog` names an executable file, here or on PATH as execvp would find it */
static int job__executable(const char *prog, const char *wdir)
{
    const char *path = getenv("PATH");
    char buf[4096];

    if (strchr(prog, '/') != NULL) {
        if (prog[0] != '/' && wdir != NULL) {
            snprintf(buf, sizeof(buf), "%s/%s", wdir, prog);
            return access(buf, X_OK) == 0;
        }
        return access(prog, X_OK) == 0;
    }
    for (const char *p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0';) {
        const char *end = strchr(p, ':');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

        snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len > 0 ? p : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        p += len + (end != NULL);
    }
    return 0;
}

compi_status_t job_spawn_sub(mpirun_job_t *job, mpirun_cmd_t *cmds, int ncmds,
                             const char *parent_key, int *sub_p, char *why, size_t len)
{
    int total = 0, k = job->nsubs;
    mpirun_sub_t *sub;

    for (int c = 0; c < ncmds; c++) {
        if (cmds[c].wdir != NULL && access(cmds[c].wdir, X_OK) != 0) {
            snprintf(why, len, "cannot enter directory '%s': %s", cmds[c].wdir, strerror(errno));
            return COMPI_ERR_INVALID_PARAM;
        }
        if (!job__executable(cmds[c].argv[0], cmds[c].wdir)) {
            snprintf(why, len, "cannot execute '%s': not found or not executable", cmds[c].argv[0]);
            return COMPI_ERR_NOT_FOUND;
        }
        total += cmds[c].maxprocs;
    }
    if (job->terminating) {
        snprintf(why, len, "the job is going down");
        return COMPI_ERR_IO;
    }
    if (k >= MPIRUN_MAX_SUBS || total > job->cap - job->n) {
        snprintf(why, len, "mpirun spawns at most %d processes and %d spawns in a job's life",
                 MPIRUN_MAX_SPAWNED, MPIRUN_MAX_SUBS - 1);
        return COMPI_ERR_NO_RESOURCE;
    }
    sub = &job->subs[k];
    *sub = (mpirun_sub_t){.base = job->n, .n = total, .cmds = cmds, .ncmds = ncmds};
    snprintf(sub->jobid, sizeof(sub->jobid), "%s.s%d", job->jobid, k);
    job->nsubs++;
    for (int c = 0, rank = 0; c < ncmds; c++) {
        for (int i = 0; i < cmds[c].maxprocs; i++, rank++) {
            mpirun_rank_t *r = &job->ranks[sub->base + rank];

            job__rank_init(job, sub->base + rank, k, rank);
            r->cmd = &cmds[c];
            r->local_rank = rank;
            r->local_size = total;
        }
    }
    job->nlocal += total;
    job->n += total;
    *sub_p = k;
    setenv("COMPI_PARENT", parent_key, 1);
    for (int i = 0; i < total; i++) {
        if (spawn_one(job, &job->ranks[sub->base + i]) != COMPI_OK)
            break; /* the job is going down, with a message */
    }
    unsetenv("COMPI_PARENT");
    return COMPI_OK;
}

static mpirun_rank_t *find_rank(mpirun_job_t *job, pid_t pid)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].pid == pid)
            return &job->ranks[i];
    return NULL;
}

/* decides whether this exit takes the job down, and says why */
static void judge_exit(mpirun_job_t *job, mpirun_rank_t *r, int ws)
{
    char why[512], who[256];
    int status;

    job__label(job, r, who, sizeof(who));
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);

        status = 128 + sig;
        if (job->terminating || r->aborted)
            return;
        snprintf(why, sizeof(why), "%s was killed by signal %d (%s); terminating the job", who, sig,
                 strsignal(sig));
        job_terminate(job, status, why);
        return;
    }
    status = WEXITSTATUS(ws);
    if (job->terminating || r->aborted || r->exec_failed)
        return;
    if (r->sub > 0 && !r->pmi_inited) {
        /* its parents wait in MPI_Comm_spawn for the world it belongs to */
        snprintf(why, sizeof(why),
                 "%s exited with status %d without calling MPI_Init, while the processes "
                 "that spawned it wait for it; terminating the job",
                 who, status);
        job_terminate(job, status != 0 ? status : 1, why);
    } else if (r->pmi_inited && !r->pmi_finalized) {
        snprintf(why, sizeof(why),
                 "%s exited with status %d without calling MPI_Finalize; terminating the job", who,
                 status);
        job_terminate(job, status != 0 ? status : 1, why);
    } else if (status != 0) {
        snprintf(why, sizeof(why), "%s exited with status %d; terminating the job", who, status);
        job_terminate(job, status, why);
    }
}

void job_reap(mpirun_job_t *job)
{
    pid_t pid;
    int ws;

    while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
        mpirun_rank_t *r = find_rank(job, pid);

        if (r == NULL || !r->alive)
            continue;
        r->alive = 0;
        job->nalive--;
        /* a finalize or abort may still sit in the socket: hear it before judging */
        pmi_server_drain(job, r);
        judge_exit(job, r, ws);
    }
}

void job_terminate(mpirun_job_t *job, int status, const char *why)
{
    if (!job->have_status) {
        job->exit_status = status;
        job->have_status = 1;
    }
    if (job->terminating)
        return;
    job->terminating = 1;
    if (why != NULL)
        fprintf(stderr, "mpirun: %s\n", why);
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].alive)
            kill(job->ranks[i].pid, SIGTERM);
    job->kill_deadline = mpirun_now() + JOB_KILL_GRACE;
}

void job_kill_tick(mpirun_job_t *job)
{
    if (job->kill_deadline == 0 || mpirun_now() < job->kill_deadline)
        return;
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].alive)
            kill(job->ranks[i].pid, SIGKILL);
    job->kill_deadline = 0;
}

int job_exit_status(const mpirun_job_t *job)
{
    return job->have_status ? job->exit_status : 0;
}

/* safety net: transports unlink their own files, but a crashed rank cannot */
static void remove_shm_files(const char *jobid)
{
    size_t plen = strlen(jobid);
    DIR *d;
    struct dirent *de;

    if (plen == 0)
        return; /* no job id yet (job_create failed): every name would match */
    d = opendir("/dev/shm");
    if (d == NULL)
        return;
    while ((de = readdir(d)) != NULL)
        if (strncmp(de->d_name, jobid, plen) == 0)
            unlinkat(dirfd(d), de->d_name, 0);
    closedir(d);
}

void job_destroy(mpirun_job_t *job)
{
    remove_shm_files(job->jobid);
    for (int i = 0; job->ranks != NULL && i < job->n; i++) {
        mpirun_rank_t *r = &job->ranks[i];

        job_cmds_free(r->spawn_cmds, r->spawn_ncmds);
        if (r->pmi_fd >= 0)
            close(r->pmi_fd);
        free(r->obuf);
        iof_stream_destroy(&r->out);
        iof_stream_destroy(&r->err);
    }
    for (int k = 1; k < job->nsubs; k++)
        job_cmds_free(job->subs[k].cmds, job->subs[k].ncmds);
    pmi_tcp_close(job);
    pmi_server_destroy(job);
    free(job->ranks);
    job->ranks = NULL;
}
