/*
 * launcher.h -- mpirun's internal view of a job: options, ranks, and the pieces that act on
 * them (job.c starts and stops processes, pmi_server.c answers PMI, pmi_tcp.c accepts the
 * PMI connections of remote ranks, iof.c tags output, bind.c binds ranks to cores,
 * hosts.c reads --host/--hostfile and maps ranks to hosts, agent.c builds the command
 * line that starts a rank through the launch agent).
 *
 * Ownership: main() owns the options (and their host list) and the job; the job owns its
 * rank array, every file descriptor in it (closed when it reaches end of file or at
 * job_destroy), the PMI listening socket with its not yet identified connections, the
 * PMI key-value space, and the spawned sub-jobs' commands (a rank's `cmd` points into its
 * sub-job's; a spawn request being received belongs to its rank until spawn_go).  A rank's `host` points into the options' host list.  Nothing here
 * is shared with the MPI library.
 */
#ifndef COMPI_LAUNCHER_H
#define COMPI_LAUNCHER_H

#include "core/runtime/pmi_wire.h"

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

/* --bind-to (bind.c) */
typedef enum bind_policy { BIND_DEFAULT, BIND_NONE, BIND_CORE, BIND_NUMA } bind_policy_t;

/* --map-by (hosts.c) */
typedef enum map_policy { MAP_SLOT, MAP_NODE } map_policy_t;

/* one host of --host / --hostfile; a name given twice is one host with the slots added */
typedef struct mpirun_host {
    char *name;
    int slots;
    int local; /* this machine: its ranks are started directly, not through the agent */
    int node;  /* machine number (local hosts share one) for PMI_process_mapping */
} mpirun_host_t;

typedef struct mpirun_hosts {
    mpirun_host_t *host; /* heap, in the order first named */
    int n;
    /* hosts.c's: room in host[], the slots of all, and an index of the names (open
       addressing, index + 1, 0 empty; heap), so adding a host costs the same at any n */
    int cap, total_slots;
    int *index;
    int nindex; /* a power of two, at least twice n; 0 before the first host */
} mpirun_hosts_t;

typedef struct mpirun_opts {
    int np;
    int np_given; /* -np was given (else np comes from the hosts' slots) */
    int tag_output;
    int oversubscribe;
    double timeout_s; /* 0: no limit */
    char **prog_argv; /* into main's argv, NULL-terminated */
    char **env;       /* "NAME=VALUE" to add to every rank's environment (heap) */
    int nenv;
    char *coll_config; /* colon-separated list for COMPI_COLL_CONFIG, NULL when none */
    bind_policy_t bind_to;
    int report_bindings;
    int keep_lib_path; /* --keep-lib-path: LD_LIBRARY_PATH left as it is */
    mpirun_hosts_t hosts; /* empty: every rank on this machine */
    int hostfile_given;
    map_policy_t map_by;
    char **agent;            /* --launch-agent split into words, NULL-terminated (heap) */
    const char *pmi_address; /* --pmi-address, NULL: this machine's first IPv4 address */
} mpirun_opts_t;

/* one output stream of one rank when --tag-output sends it through a pipe */
typedef struct iof_stream {
    int fd; /* read end; -1 once closed */
    int rank;
    int sub; /* its sub-job (the tag's first number less one) */
    int is_err;
    char *buf; /* bytes of the line not yet complete */
    size_t len, cap;
} iof_stream_t;

/*
 * Processes MPI_Comm_spawn starts join the same job (the same rank array, key-value space
 * and fate) as a new world of their own: a sub-job.  Sub-job 0 is the world mpirun started.
 * A process's index in the rank array is its global id, which the library names modex keys
 * by ("<key>.<gid>"): world rank plus its sub-job's base.
 */
#define MPIRUN_MAX_SPAWNED 4096 /* processes spawned over the job's life, all sub-jobs */
#define MPIRUN_MAX_SUBS 1024

/* one command of a spawn: the processes it starts share it (owned by its sub-job) */
typedef struct mpirun_cmd {
    char **argv; /* heap, NULL-terminated */
    char *wdir;  /* heap, NULL: mpirun's directory */
    int appnum;
    int maxprocs;
} mpirun_cmd_t;

typedef struct mpirun_sub {
    int base, n; /* its processes are ranks[base .. base + n) */
    int barrier_count;
    char jobid[96]; /* its PMI kvsname and COMPI_JOBID: the job's id, then ".s<k>" */
    mpirun_cmd_t *cmds;
    int ncmds;
} mpirun_sub_t;

typedef struct mpirun_rank {
    int rank; /* in its sub-job's world */
    int gid;  /* index in the job's rank array */
    int sub;
    const mpirun_cmd_t *cmd;  /* NULL in sub-job 0 (the options' program) */
    mpirun_cmd_t *spawn_cmds; /* a spawn request being received (heap) */
    int spawn_ncmds;
    int spawn_bad;              /* a line of the request was malformed: its spawn_go is refused */
    const mpirun_host_t *host;  /* NULL without --host/--hostfile */
    int remote;                 /* started through the launch agent, PMI over TCP */
    int local_rank, local_size; /* among the ranks of its machine */
    pid_t pid;                  /* 0 when never started; the agent's pid for a remote rank */
    int alive;                  /* started and not reaped yet */
    int pmi_fd; /* our end of the PMI socketpair (TCP connection when remote); -1 closed */
    pmi_wire_reader_t reader;
    int pmi_eof;       /* the rank closed its end: close ours once its lines are answered */
    char *obuf;        /* replies not yet written (the socket was full); heap */
    size_t olen, ocap; /* at most PMI_OUT_MAX bytes: past that the rank is cut off */
    int out_dead;      /* writing failed (the rank is gone): replies are dropped */
    int pmi_attached;  /* remote: its TCP connection said which rank it is */
    int pmi_inited;    /* sent cmd=init */
    int pmi_finalized; /* sent cmd=finalize */
    int in_barrier;
    int aborted; /* sent cmd=abort: the job is going down because of it */
    int exec_failed;
    iof_stream_t out, err;
    int bound; /* cpus holds the rank's binding */
    cpu_set_t cpus;
    char binding[640]; /* "core 1 (cpus 1)", "not bound": for --report-bindings */
} mpirun_rank_t;

typedef struct pmi_kvs pmi_kvs_t;

/* a PMI connection accepted on the TCP port whose first line (initack) has not come yet */
typedef struct pmi_tcp_conn {
    int fd; /* -1: slot free */
    pmi_wire_reader_t reader;
    double since;  /* when it was accepted (mpirun_now) */
    char peer[64]; /* "ADDR:PORT" for messages */
} pmi_tcp_conn_t;

/*
 * Connections that have not yet shown the job's secret.  A rank sends its first line as
 * soon as it is connected, so a few places are enough; when they are all taken, the
 * oldest is read once more and then dropped, and none may stay silent longer than
 * PMI_TCP_AUTH_TIMEOUT seconds.  Identified ranks do not use these places.
 */
#define PMI_TCP_PENDING_MAX 16
#define PMI_TCP_AUTH_TIMEOUT 5.0
/* the job's secret: PMI_SECRET_BYTES random bytes, written as hex */
#define PMI_SECRET_BYTES 16

typedef struct mpirun_job {
    const mpirun_opts_t *opts;
    int n;   /* processes of every sub-job */
    int cap; /* entries of ranks: never reallocated, so rank pointers stay valid */
    mpirun_rank_t *ranks;
    mpirun_sub_t subs[MPIRUN_MAX_SUBS];
    int nsubs;
    int universe; /* MPI_UNIVERSE_SIZE: the hosts' slots, else max(np, cores) */
    int nalive;
    char jobid[64]; /* also the PMI kvsname */
    pmi_kvs_t *kvs;
    int barrier_count;
    int terminating;      /* the job is going down: SIGTERM sent */
    double kill_deadline; /* when still-alive ranks get SIGKILL; 0 when not armed */
    int exit_status;      /* meaningful once have_status */
    int have_status;
    int nlocal, nremote;
    int listen_fd;      /* PMI over TCP for remote ranks; -1 when none or all connected */
    char pmi_port[128]; /* "ADDR:PORT" handed to remote ranks as PMI_PORT */
    int nconnected;     /* remote ranks whose connection is bound */
    pmi_tcp_conn_t pending[PMI_TCP_PENDING_MAX];
    char secret[2 * PMI_SECRET_BYTES + 1]; /* hex; remote ranks read it on their stdin */
    unsigned long refused;                 /* TCP connections closed without the secret */
    char first_refused[64];                /* peer of the first one, for the summary */
} mpirun_job_t;

/* monotonic clock in seconds */
double mpirun_now(void);

/* job.c */
compi_status_t job_create(mpirun_job_t *job, const mpirun_opts_t *opts);
/* starts every rank; on failure the job is already terminating with a message printed */
compi_status_t job_spawn(mpirun_job_t *job);
/*
 * MPI_Comm_spawn: a new sub-job of the commands' processes (taken over by it), started
 * with COMPI_PARENT=parent_key; *sub_p its number.  An error with `why` filled when it
 * cannot start (nothing started); a failure after that takes the job down as usual.
 */
compi_status_t job_spawn_sub(mpirun_job_t *job, mpirun_cmd_t *cmds, int ncmds,
                             const char *parent_key, int *sub_p, char *why, size_t len);
void job_cmds_free(mpirun_cmd_t *cmds, int ncmds);
/* reaps exited ranks and judges each exit (call when SIGCHLD arrived) */
void job_reap(mpirun_job_t *job);
/*
 * Takes the job down: prints `why` (when not NULL and the job was not already going down),
 * records `status` as the job's exit status unless one is set, SIGTERMs live ranks.
 */
void job_terminate(mpirun_job_t *job, int status, const char *why);
/* SIGKILLs ranks still alive past the kill deadline */
void job_kill_tick(mpirun_job_t *job);
/* the exit status mpirun returns */
int job_exit_status(const mpirun_job_t *job);
/* unlinks /dev/shm/<jobid>*, closes fds, frees the job */
void job_destroy(mpirun_job_t *job);

/* pmi_server.c */
/*
 * One turn of the event loop serves at most PMI_LINES_PER_TURN lines of a rank, and
 * replies a rank does not read pile up to PMI_OUT_MAX bytes before it is cut off: no rank
 * can hold mpirun.  The key-value space takes at most PMI_KVS_KEYS_PER_RANK new keys from
 * each rank.
 */
#define PMI_LINES_PER_TURN 16
#define PMI_OUT_MAX (256 * 1024)
#define PMI_KVS_KEYS_PER_RANK 1024
/* the most read from the socket of a rank that has exited (more than a socket buffer) */
#define PMI_DRAIN_MAX (4 * 1024 * 1024)
compi_status_t pmi_server_create(mpirun_job_t *job);
void pmi_server_destroy(mpirun_job_t *job);
/* reads what rank r sent (when nothing is buffered) and answers up to PMI_LINES_PER_TURN
   whole lines; closes the fd at end of file once every line is answered */
void pmi_server_readable(mpirun_job_t *job, mpirun_rank_t *r);
/* 1 when rank r has whole lines buffered that wait for the next turn */
int pmi_server_has_lines(const mpirun_rank_t *r);
/* writes what replies the socket takes now (poll said POLLOUT) */
void pmi_server_writable(mpirun_rank_t *r);
/* `s` with control characters and non-ASCII bytes written as \xHH, cut to fit `len` */
const char *launcher_escape(const char *s, char *buf, size_t len);
/* reads until end of file without blocking: the rank has exited */
void pmi_server_drain(mpirun_job_t *job, mpirun_rank_t *r);

/*
 * Binds an identified TCP connection (its first line named rank r) to r, and answers the
 * initack as Hydra does.  `reader` holds what came after the first line.
 */
void pmi_server_attach(mpirun_job_t *job, mpirun_rank_t *r, int fd,
                       const pmi_wire_reader_t *reader);

/* pmi_tcp.c */
/*
 * Draws the job's secret and listens on --pmi-address (else this machine's first IPv4
 * address) at an ephemeral port; fills job->pmi_port (message printed on error).
 */
compi_status_t pmi_tcp_listen(mpirun_job_t *job);
/* when the oldest silent connection times out (0: none pending) */
double pmi_tcp_deadline(const mpirun_job_t *job);
/* drops connections silent for longer than PMI_TCP_AUTH_TIMEOUT */
void pmi_tcp_tick(mpirun_job_t *job);
/* prints how many connections were refused, if any (at the end of the job) */
void pmi_tcp_report(const mpirun_job_t *job);
/* the listening socket is readable: accept what is there */
void pmi_tcp_accept(mpirun_job_t *job);
/* a pending connection is readable: read its initack and bind it to its rank */
void pmi_tcp_readable(mpirun_job_t *job, pmi_tcp_conn_t *c);
/* closes the listening socket and the connections never identified */
void pmi_tcp_close(mpirun_job_t *job);

/* hosts.c */
const char *map_policy_name(map_policy_t p);
int map_policy_parse(const char *s, map_policy_t *p); /* 0, or -1 for an unknown name */
/* adds "a:4,b,b" (OMPI / MPICH style); an error after printing what is wrong */
compi_status_t hosts_add_list(mpirun_hosts_t *h, const char *spec, const char *prog);
/* adds a host file's lines ("name slots=N", "name:N", "name"; '#' comments); an error
   after printing FILE:LINE and what is wrong there */
compi_status_t hosts_add_file(mpirun_hosts_t *h, const char *path, const char *prog);
/* marks this machine's hosts and numbers machines; call once the list is complete */
void hosts_finish(mpirun_hosts_t *h);
int hosts_total_slots(const mpirun_hosts_t *h);
/* the host of every rank (np of them) by the policy; wraps around past the slots */
compi_status_t hosts_map(const mpirun_hosts_t *h, int np, map_policy_t p, int *host_of);
void hosts_free(mpirun_hosts_t *h);

/* agent.c */
/* "--launch-agent CMD" split at blanks; an error (message printed) when CMD has no word */
compi_status_t agent_parse(const char *cmd, char ***words_p, const char *prog);
void agent_words_free(char **words);
/*
 * The command that starts remote rank r: AGENT... HOST env NAME=VALUE... PROGRAM ARGS...,
 * the words after HOST shell-quoted when the agent is ssh or rsh.  Heap, NULL-terminated;
 * free with agent_argv_free.  NULL (message in why) on failure.
 */
char **agent_argv(const mpirun_job_t *job, const mpirun_rank_t *r, char *why, size_t len);
void agent_argv_free(char **argv);
/*
 * The lines a remote rank's stdin starts with, before the job's secret: the user's
 * variables (this environment's COMPI_*, --coll-config, -x, --mca), which stay off the
 * agent's command line, encoded for the shell that agent_argv starts, then an empty line.
 * Heap; NULL (message in why) on failure, e.g. a name a shell cannot export.
 */
char *agent_stdin_env(const mpirun_job_t *job, const mpirun_rank_t *r, char *why, size_t len);

/* bind.c */
const char *bind_policy_name(bind_policy_t p);
int bind_policy_parse(const char *s, bind_policy_t *p); /* 0, or -1 for an unknown name */
/* Decides every rank's binding (and prints it with --report-bindings); on failure the
   ranks are left unbound with a warning printed. */
compi_status_t bind_plan(mpirun_job_t *job);
/* in the child, before exec */
void bind_apply(const mpirun_rank_t *r);

/* iof.c */
void iof_stream_init(iof_stream_t *s, int fd, int rank, int is_err);
/* reads once and writes out every whole line, tagged; closes the fd at end of file */
void iof_stream_readable(iof_stream_t *s);
/* reads until end of file or nothing more is there, then writes out a partial last line */
void iof_stream_finish(iof_stream_t *s);
void iof_stream_destroy(iof_stream_t *s);

#endif
