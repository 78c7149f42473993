/*
 * launcher.h -- mpirun's internal view of a job: options, ranks, and the pieces that act on
 * them (job.c starts and stops processes, pmi_server.c answers PMI, iof.c tags output,
 * bind.c binds ranks to cores).
 *
 * Ownership: main() owns the options and the job; the job owns its rank array, every
 * file descriptor in it (closed when it reaches end of file or at job_destroy) and the
 * PMI key-value space.  Nothing here is shared with the MPI library.
 */
#ifndef COMPI_LAUNCHER_H
#define COMPI_LAUNCHER_H

#include "pmi_wire.h"

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

/* --bind-to (bind.c) */
typedef enum bind_policy { BIND_DEFAULT, BIND_NONE, BIND_CORE, BIND_NUMA } bind_policy_t;

typedef struct mpirun_opts {
    int np;
    int tag_output;
    int oversubscribe;
    double timeout_s; /* 0: no limit */
    char **prog_argv; /* into main's argv, NULL-terminated */
    char **env;       /* "NAME=VALUE" to add to every rank's environment (heap) */
    int nenv;
    char *coll_config; /* colon-separated list for COMPI_COLL_CONFIG, NULL when none */
    bind_policy_t bind_to;
    int report_bindings;
} mpirun_opts_t;

/* one output stream of one rank when --tag-output sends it through a pipe */
typedef struct iof_stream {
    int fd; /* read end; -1 once closed */
    int rank;
    int is_err;
    char *buf; /* bytes of the line not yet complete */
    size_t len, cap;
} iof_stream_t;

typedef struct mpirun_rank {
    int rank;
    pid_t pid;  /* 0 when never started */
    int alive;  /* started and not reaped yet */
    int pmi_fd; /* our end of the PMI socketpair; -1 once closed */
    pmi_wire_reader_t reader;
    int pmi_inited;    /* sent cmd=init */
    int pmi_finalized; /* sent cmd=finalize */
    int in_barrier;
    int aborted; /* sent cmd=abort: the job is going down because of it */
    int exec_failed;
    iof_stream_t out, err;
    int bound;         /* cpus holds the rank's binding */
    cpu_set_t cpus;
    char binding[640]; /* "core 1 (cpus 1)", "not bound": for --report-bindings */
} mpirun_rank_t;

typedef struct pmi_kvs pmi_kvs_t;

typedef struct mpirun_job {
    const mpirun_opts_t *opts;
    int n;
    mpirun_rank_t *ranks;
    int nalive;
    char jobid[64]; /* also the PMI kvsname */
    pmi_kvs_t *kvs;
    int barrier_count;
    int terminating;      /* the job is going down: SIGTERM sent */
    double kill_deadline; /* when still-alive ranks get SIGKILL; 0 when not armed */
    int exit_status;      /* meaningful once have_status */
    int have_status;
} mpirun_job_t;

/* monotonic clock in seconds */
double mpirun_now(void);

/* job.c */
compi_status_t job_create(mpirun_job_t *job, const mpirun_opts_t *opts);
/* starts every rank; on failure the job is already terminating with a message printed */
compi_status_t job_spawn(mpirun_job_t *job);
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
compi_status_t pmi_server_create(mpirun_job_t *job);
void pmi_server_destroy(mpirun_job_t *job);
/* reads what rank r sent and answers every whole line; closes the fd at end of file */
void pmi_server_readable(mpirun_job_t *job, mpirun_rank_t *r);
/* reads until end of file without blocking: the rank has exited */
void pmi_server_drain(mpirun_job_t *job, mpirun_rank_t *r);

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
