/*
 * mpirun.c -- mpirun / mpiexec: options, signals, and the one event loop of the launcher.
 *
 * Everything mpirun waits for comes through a single poll(): the ranks' PMI sockets, their
 * output pipes (--tag-output), the TCP port and not yet identified connections of remote
 * ranks' PMI (pmi_tcp.c), and a self-pipe that the signal handlers (SIGCHLD, SIGINT,
 * SIGTERM, SIGHUP) write the signal number into.  Deadlines (--timeout, the SIGKILL after
 * SIGTERM, the last drain of output, silent PMI connections) become poll's timeout: no
 * busy waiting.  Nothing in a turn blocks, and each rank gets a bounded share of it
 * (pmi_server.c), so signals and deadlines are handled on time whatever a rank does.
 */
#include "core/runtime/launcher/launcher.h"
#include "core/runtime/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* how long output pipes may stay open after the last rank exited (grandchildren) */
#define DRAIN_GRACE 1.0

static int self_pipe[2] = {-1, -1};

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
            "Usage: %s [options] program [args...]\n"
            "Starts N copies of program as the ranks of one MPI job, on this machine or on the\n"
            "hosts given.\n"
            "\n"
            "  -n, -np, --np N       number of ranks (default: the hosts' slots, else 1)\n"
            "  -H, --host LIST       hosts: a:4,b:4 (4 slots each) or a,a,b (a slot per name)\n"
            "  --hostfile FILE       hosts, one per line: 'name slots=N', 'name:N' or 'name';\n"
            "                        '#' starts a comment (also --machinefile)\n"
            "  --map-by slot|node    fill each host's slots in turn (slot, default), or one\n"
            "                        rank per host round-robin (node)\n"
            "  --oversubscribe       allow more ranks than slots (placement wraps around) and\n"
            "                        tell remote ranks they share cores; on this machine more\n"
            "                        ranks than cores are always allowed\n"
            "  --launch-agent CMD    starts ranks on other hosts (default: ssh); see below\n"
            "  --pmi-address ADDR    address remote ranks reach mpirun at (default: this\n"
            "                        machine's first non-loopback IPv4 address)\n"
            "  -x VAR[=VALUE]        export VAR (from this environment, or set to VALUE)\n"
            "  --mca NAME VALUE      set parameter NAME (COMPI_MCA_NAME=VALUE) in the ranks\n"
            "  --coll-config FILE    add FILE to the collective configuration files (a bare\n"
            "                        NAME: NAME.scm of the configs installed with compi)\n"
            "  --layout SPEC         pretend the ranks run on the hosts of SPEC, as compi-tree\n"
            "                        --layout draws them: NAME:COUNT or NAME:COUNT@A.B.C.D/NN,\n"
            "                        comma-separated (a:2@10.1.0.0/24,b:2@10.2.0.0/24: ranks\n"
            "                        0-1 report host a, 10.1.0.1/24 and .2; ranks 2-3 host b);\n"
            "                        the ranks still run here.  Sets parameter rte_layout; the\n"
            "                        counts give -np (and must match it when -np is given)\n"
            "  --tag-output          prefix each output line with [1,RANK]<stdout>: or <stderr>:\n"
            "  --bind-to none|core|numa  bind local rank k to core k (mod cores), or to that\n"
            "                        core's NUMA node (default: core when this machine's ranks\n"
            "                        <= cores, else none); ranks on other hosts are not bound\n"
            "  --report-bindings     print each rank's binding (rank, host, cores) on stderr\n"
            "  --timeout S           kill the job if it runs longer than S seconds (exit 124)\n"
            "  --keep-lib-path       leave LD_LIBRARY_PATH as it is (see below: a program\n"
            "                        built for MPICH then runs on MPICH's own library)\n"
            "  -h, --help            show this help\n"
            "  -V, --version         show the version\n"
            "\n"
            "A host whose name is not this machine's (gethostname), localhost or 127.0.0.1 is\n"
            "remote: its ranks run as  CMD... HOST env NAME=VALUE... sh -c SCRIPT compi-rank\n"
            "PROGRAM ARGS...  where CMD is --launch-agent split at blanks.  When CMD's first\n"
            "word is ssh or rsh, the words after HOST are shell-quoted (a remote shell re-reads\n"
            "them); otherwise they are passed as separate arguments (exec-style agents: 'ip\n"
            "netns exec', scripts).  The env words carry PMI_PORT/PMI_ID (remote ranks speak\n"
            "PMI to mpirun over TCP, showing a secret of the job that mpirun writes on the\n"
            "agent's stdin), PMI_RANK, PMI_SIZE and COMPI_JOBID.  This environment's COMPI_*\n"
            "variables, COMPI_COLL_CONFIG (made absolute), -x and --mca go on the agent's\n"
            "stdin before the secret, off the command line; SCRIPT exports them (their names\n"
            "must be shell names) and execs PROGRAM.  A relative PROGRAM path is made\n"
            "absolute; the remote rank starts in the agent's directory (ssh: the home).\n"
            "The agent's exit is the rank's exit; signals to the rank go to the agent.\n"
            "\n"
            "Ranks on this machine get compi's library folder first in LD_LIBRARY_PATH, so a\n"
            "program built against another MPI of compi's ABIs (MPICH's libmpi.so.12 or\n"
            "libmpich.so.12, the MPI-5 standard ABI's libmpi_abi.so.1) runs on compi's library\n"
            "without setting it, even when its RUNPATH names the other MPI's folder.  An old-\n"
            "style RPATH (linked with --disable-new-dtags) still pins the other library:\n"
            "compi_info --abi PROGRAM tells which one a program loads.  --keep-lib-path\n"
            "leaves the path alone.\n",
            prog);
}

static void fail_usage(const char *prog, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun '%s --help' for usage.\n", prog);
    exit(1);
}

static void add_env(mpirun_opts_t *o, char *entry)
{
    char **env = realloc(o->env, (size_t)(o->nenv + 1) * sizeof(*env));

    if (env == NULL || entry == NULL) {
        fprintf(stderr, "mpirun: out of memory\n");
        exit(1);
    }
    o->env = env;
    o->env[o->nenv++] = entry;
}

static char *join3(const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = malloc(la + lb + lc + 1);

    if (s != NULL) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb);
        memcpy(s + la + lb, c, lc + 1);
    }
    return s;
}

static void add_export(mpirun_opts_t *o, const char *prog, const char *spec)
{
    const char *value;

    if (*spec == '\0' || *spec == '=')
        fail_usage(prog, "-x needs a variable name, got '%s'", spec);
    if (strchr(spec, '=') != NULL) {
        add_env(o, strdup(spec));
        return;
    }
    value = getenv(spec);
    if (value == NULL) {
        fprintf(stderr, "%s: warning: -x %s: not set in this environment; not exported\n", prog,
                spec);
        return;
    }
    add_env(o, join3(spec, "=", value));
}

static void add_coll_config(mpirun_opts_t *o, const char *file)
{
    const char *base = o->coll_config != NULL ? o->coll_config : getenv("COMPI_COLL_CONFIG");
    char *joined = (base != NULL && *base != '\0') ? join3(base, ":", file) : strdup(file);

    if (joined == NULL) {
        fprintf(stderr, "mpirun: out of memory\n");
        exit(1);
    }
    free(o->coll_config);
    o->coll_config = joined;
}

/* "--name" or "-name" (Open MPI accepts both for long options) */
static int is_opt(const char *arg, const char *name)
{
    if (arg[0] != '-')
        return 0;
    arg += arg[1] == '-' ? 2 : 1;
    return strcmp(arg, name) == 0;
}

/* value of an option: the next argument, or what follows '=' in "--name=value" */
static const char *opt_value(int argc, char **argv, int *i, const char *prog)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');

    if (eq != NULL)
        return eq + 1;
    if (*i + 1 >= argc)
        fail_usage(prog, "option '%s' needs a value", arg);
    return argv[++*i];
}

/* splits "--name=value" so that is_opt sees "--name" */
static int opt_name_is(const char *arg, const char *name)
{
    char buf[64];
    const char *eq = strchr(arg, '=');
    size_t n = eq != NULL ? (size_t)(eq - arg) : strlen(arg);

    if (n >= sizeof(buf))
        return 0;
    memcpy(buf, arg, n);
    buf[n] = '\0';
    return is_opt(buf, name);
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *endp;
    long v;

    errno = 0;
    v = strtol(s, &endp, 10);
    if (*s == '\0' || *endp != '\0' || errno != 0 || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* the rank count against the hosts' slots, and the default launch agent */
static void check_hosts(mpirun_opts_t *o, const char *prog)
{
    int slots;

    if (o->hosts.n == 0) {
        if (o->hostfile_given) {
            fprintf(stderr, "%s: the host file names no host\n", prog);
            exit(1);
        }
        return;
    }
    hosts_finish(&o->hosts);
    slots = hosts_total_slots(&o->hosts);
    if (!o->np_given) {
        o->np = slots;
    } else if (o->np > slots && !o->oversubscribe) {
        fprintf(stderr,
                "%s: %d ranks asked for, but the hosts given have %d slot%s; give more slots "
                "or --oversubscribe\n",
                prog, o->np, slots, slots == 1 ? "" : "s");
        exit(1);
    }
    if (o->agent == NULL && agent_parse("ssh", &o->agent, prog) != COMPI_OK)
        exit(1);
}

static void parse_args(int argc, char **argv, mpirun_opts_t *o, const char *prog)
{
    int i;

    const char *layout = NULL;
    int layout_size = 0;

    o->np = 1;
    o->map_by = MAP_SLOT;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;

        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        if (strcmp(a, "-h") == 0 || is_opt(a, "help")) {
            usage(stdout, prog);
            exit(0);
        } else if (strcmp(a, "-V") == 0 || is_opt(a, "version")) {
            printf("%s (compi) %s\n", prog, PACKAGE_VERSION);
            exit(0);
        } else if (opt_name_is(a, "np") || opt_name_is(a, "n")) {
            const char *s = opt_value(argc, argv, &i, prog);

            if (parse_int(s, 1, 1 << 20, &v) != 0)
                fail_usage(prog, "the number of ranks must be a positive integer, got '%s'", s);
            o->np = (int)v;
            o->np_given = 1;
        } else if (strcmp(a, "-H") == 0 || opt_name_is(a, "host")) {
            if (hosts_add_list(&o->hosts, opt_value(argc, argv, &i, prog), prog) != COMPI_OK)
                exit(1);
        } else if (opt_name_is(a, "hostfile") || opt_name_is(a, "machinefile")) {
            if (hosts_add_file(&o->hosts, opt_value(argc, argv, &i, prog), prog) != COMPI_OK)
                exit(1);
            o->hostfile_given = 1;
        } else if (opt_name_is(a, "map-by")) {
            const char *s = opt_value(argc, argv, &i, prog);

            if (map_policy_parse(s, &o->map_by) != 0)
                fail_usage(prog, "--map-by takes slot or node, got '%s'", s);
        } else if (opt_name_is(a, "launch-agent")) {
            agent_words_free(o->agent);
            o->agent = NULL;
            if (agent_parse(opt_value(argc, argv, &i, prog), &o->agent, prog) != COMPI_OK)
                exit(1);
        } else if (opt_name_is(a, "pmi-address")) {
            const char *s = opt_value(argc, argv, &i, prog);

            if (*s == '\0' || strpbrk(s, " \t\n'\"\\=") != NULL)
                fail_usage(prog, "--pmi-address needs an address or host name, got '%s'", s);
            o->pmi_address = s;
        } else if (strcmp(a, "-x") == 0) {
            if (i + 1 >= argc)
                fail_usage(prog, "option '%s' needs a value", a);
            add_export(o, prog, argv[++i]);
        } else if (is_opt(a, "mca") || is_opt(a, "gmca")) {
            if (i + 2 >= argc)
                fail_usage(prog, "option '%s' needs a name and a value", a);
            char *entry = NULL;

            if (asprintf(&entry, "COMPI_MCA_%s=%s", argv[i + 1], argv[i + 2]) < 0)
                entry = NULL;
            add_env(o, entry);
            i += 2;
        } else if (opt_name_is(a, "layout")) {
            rte_layout_t *l;
            char err[512];

            layout = opt_value(argc, argv, &i, prog);
            if (rte_layout_parse(layout, 1 << 20, &l, err, sizeof(err)) != COMPI_OK) {
                fprintf(stderr, "%s: --layout '%s': %s\n", prog, layout, err);
                exit(1);
            }
            layout_size = l->size;
            rte_layout_free(l);
        } else if (opt_name_is(a, "coll-config")) {
            add_coll_config(o, opt_value(argc, argv, &i, prog));
        } else if (is_opt(a, "oversubscribe")) {
            o->oversubscribe = 1;
        } else if (opt_name_is(a, "bind-to")) {
            const char *s = opt_value(argc, argv, &i, prog);

            if (bind_policy_parse(s, &o->bind_to) != 0)
                fail_usage(prog, "--bind-to takes none, core or numa, got '%s'", s);
        } else if (is_opt(a, "report-bindings")) {
            o->report_bindings = 1;
        } else if (is_opt(a, "keep-lib-path")) {
            o->keep_lib_path = 1;
        } else if (is_opt(a, "tag-output")) {
            o->tag_output = 1;
        } else if (opt_name_is(a, "timeout")) {
            const char *s = opt_value(argc, argv, &i, prog);
            char *endp;
            double t = strtod(s, &endp);

            if (*s == '\0' || *endp != '\0' || !(t > 0) || !isfinite(t))
                fail_usage(prog, "--timeout needs a positive number of seconds, got '%s'", s);
            o->timeout_s = t;
        } else {
            fail_usage(prog, "unknown option '%s'", a);
        }
    }
    if (i >= argc)
        fail_usage(prog, "%s", "no program to run");
    o->prog_argv = argv + i;
    if (layout != NULL) {
        char *entry = NULL;

        if (o->np_given && o->np != layout_size) {
            fprintf(stderr, "%s: --layout '%s' holds %d rank%s, but -np asks for %d\n", prog,
                    layout, layout_size, layout_size == 1 ? "" : "s", o->np);
            exit(1);
        }
        o->np = layout_size;
        o->np_given = 1;
        if (asprintf(&entry, "COMPI_MCA_rte_layout=%s", layout) < 0)
            entry = NULL;
        add_env(o, entry);
    }
    check_hosts(o, prog);
}

static void on_signal(int sig)
{
    unsigned char b = (unsigned char)sig;
    int saved = errno;

    if (write(self_pipe[1], &b, 1) < 0) {
        /* pipe full: enough wake-ups are already queued */
    }
    errno = saved;
}

static int setup_signals(void)
{
    struct sigaction sa;
    int sigs[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP};

    if (pipe2(self_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
        if (sigaction(sigs[k], &sa, NULL) != 0)
            return -1;
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static void handle_signals(mpirun_job_t *job)
{
    unsigned char b[64];
    ssize_t n;

    while ((n = read(self_pipe[0], b, sizeof(b))) > 0) {
        for (ssize_t k = 0; k < n; k++) {
            char why[128];
            int sig = b[k];

            if (sig == SIGCHLD) {
                job_reap(job);
                continue;
            }
            if (job->terminating) {
                /* asked again: do not wait for the grace period */
                job->kill_deadline = mpirun_now();
                continue;
            }
            snprintf(why, sizeof(why), "caught signal %d (%s); terminating the job", sig,
                     strsignal(sig));
            job_terminate(job, 128 + sig, why);
        }
    }
}

static int outputs_open(const mpirun_job_t *job)
{
    for (int i = 0; i < job->n; i++)
        if (job->ranks[i].out.fd >= 0 || job->ranks[i].err.fd >= 0)
            return 1;
    return 0;
}

/* the nearest deadline, as a poll timeout in milliseconds (-1: none) */
static int poll_timeout(double now, const double *deadlines, int n)
{
    double best = -1;

    for (int k = 0; k < n; k++)
        if (deadlines[k] > 0 && (best < 0 || deadlines[k] < best))
            best = deadlines[k];
    if (best < 0)
        return -1;
    if (best <= now)
        return 0;
    return (int)((best - now) * 1000.0) + 1;
}

static void event_loop(mpirun_job_t *job)
{
    const mpirun_opts_t *o = job->opts;
    size_t cap = 2 + 3 * (size_t)job->cap + PMI_TCP_PENDING_MAX;
    struct pollfd *pfd = calloc(cap, sizeof(*pfd));
    /* per entry: rank (PMI), iof stream, pending PMI connection, or nothing (the port) */
    void **what = calloc(cap, sizeof(*what));
    char *kind = calloc(cap, 1);
    double start = mpirun_now();
    double timeout_at = o->timeout_s > 0 ? start + o->timeout_s : 0;
    double drain_at = 0;

    if (pfd == NULL || what == NULL || kind == NULL) {
        fprintf(stderr, "mpirun: out of memory\n");
        job_terminate(job, 1, NULL);
        timeout_at = 0;
    }
    for (;;) {
        double now = mpirun_now(), deadlines[4];
        size_t n = 0;
        int busy = 0; /* some rank has lines waiting: poll without sleeping */

        if (job->nalive == 0) {
            if (drain_at == 0)
                drain_at = now + DRAIN_GRACE;
            if (!outputs_open(job) || now >= drain_at || pfd == NULL)
                break;
        }
        if (pfd != NULL) {
            pfd[n++] = (struct pollfd){.fd = self_pipe[0], .events = POLLIN};
            if (job->listen_fd >= 0) {
                kind[n] = 'l';
                pfd[n++] = (struct pollfd){.fd = job->listen_fd, .events = POLLIN};
            }
            for (int i = 0; i < PMI_TCP_PENDING_MAX; i++) {
                if (job->pending[i].fd < 0)
                    continue;
                what[n] = &job->pending[i];
                kind[n] = 'c';
                pfd[n++] = (struct pollfd){.fd = job->pending[i].fd, .events = POLLIN};
            }
            for (int i = 0; i < job->n; i++) {
                mpirun_rank_t *r = &job->ranks[i];
                iof_stream_t *s[2] = {&r->out, &r->err};

                if (r->pmi_fd >= 0) {
                    /* lines already read come first; replies waiting want POLLOUT */
                    short ev = (short)((pmi_server_has_lines(r) ? 0 : POLLIN) |
                                       (r->olen > 0 ? POLLOUT : 0));

                    busy |= pmi_server_has_lines(r);
                    what[n] = r;
                    kind[n] = 'p';
                    pfd[n++] = (struct pollfd){.fd = r->pmi_fd, .events = ev};
                }
                for (int k = 0; k < 2; k++) {
                    if (s[k]->fd < 0)
                        continue;
                    what[n] = s[k];
                    kind[n] = 'o';
                    pfd[n++] = (struct pollfd){.fd = s[k]->fd, .events = POLLIN};
                }
            }
        }
        deadlines[0] = job->terminating ? 0 : timeout_at;
        deadlines[1] = job->kill_deadline;
        deadlines[2] = drain_at;
        deadlines[3] = pmi_tcp_deadline(job);
        if (pfd != NULL &&
            poll(pfd, (nfds_t)n, busy ? 0 : poll_timeout(now, deadlines, 4)) < 0 &&
            errno != EINTR) {
            fprintf(stderr, "mpirun: poll failed: %s\n", strerror(errno));
            job_terminate(job, 1, NULL);
        }
        for (size_t k = 1; pfd != NULL && k < n; k++) {
            if (kind[k] == 'p' && (pfd[k].revents & POLLOUT))
                pmi_server_writable(what[k]);
            if (kind[k] == 'p' && pmi_server_has_lines(what[k]))
                pmi_server_readable(job, what[k]);
            if (pfd[k].revents == 0 || (pfd[k].revents & ~POLLOUT) == 0)
                continue;
            if (kind[k] == 'p')
                pmi_server_readable(job, what[k]);
            else if (kind[k] == 'l')
                pmi_tcp_accept(job);
            else if (kind[k] == 'c')
                pmi_tcp_readable(job, what[k]);
            else
                iof_stream_readable(what[k]);
        }
        if (pfd != NULL && (pfd[0].revents & POLLIN))
            handle_signals(job);

        now = mpirun_now();
        if (!job->terminating && timeout_at > 0 && now >= timeout_at) {
            char why[128];

            snprintf(why, sizeof(why), "job timed out after %g s; killing %d ranks", o->timeout_s,
                     job->nalive);
            job_terminate(job, 124, why);
        }
        job_kill_tick(job);
        pmi_tcp_tick(job);
        if (pfd == NULL) {
            /* no memory for the loop: wait for the ranks the plain way */
            sleep(1);
            job_reap(job);
        }
    }
    for (int i = 0; i < job->n; i++) {
        iof_stream_finish(&job->ranks[i].out);
        iof_stream_finish(&job->ranks[i].err);
    }
    free(pfd);
    free(what);
    free(kind);
}

int main(int argc, char **argv)
{
    const char *slash = strrchr(argv[0], '/');
    const char *prog = slash != NULL ? slash + 1 : argv[0];
    mpirun_opts_t opts = {0};
    mpirun_job_t job;
    compi_status_t st;
    int status;

    parse_args(argc, argv, &opts, prog);
    if (setup_signals() != 0) {
        fprintf(stderr, "%s: cannot set up signal handling: %s\n", prog, strerror(errno));
        return 1;
    }
    if ((st = job_create(&job, &opts)) != COMPI_OK) {
        /* the other failures said what they are */
        if (st == COMPI_ERR_NO_MEMORY)
            fprintf(stderr, "%s: out of memory\n", prog);
        job_destroy(&job);
        return 1;
    }
    /* output we write ourselves must not sit in a buffer behind the ranks' lines */
    setvbuf(stdout, NULL, _IONBF, 0);
    bind_plan(&job);
    job_spawn(&job);
    event_loop(&job);
    /* ranks may have been reaped by the last SIGCHLD only now */
    job_reap(&job);
    pmi_tcp_report(&job);
    status = job_exit_status(&job);
    job_destroy(&job);
    for (int i = 0; i < opts.nenv; i++)
        free(opts.env[i]);
    free(opts.env);
    free(opts.coll_config);
    hosts_free(&opts.hosts);
    agent_words_free(opts.agent);
    /* the job is over: a signal now (another SIGCHLD, the SIGTERM of a `timeout` around
       us) changes nothing, and blocked it cannot interrupt the exit handlers.  One of
       them, LeakSanitizer's check in the sanitized build, stops every thread with ptrace;
       it hung once after a SIGINT, mpirun spinning with its tracer attached. */
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
    return status;
}
