/*
 * agent.c -- the command line that starts a rank on another host through the launch agent:
 *
 *     AGENT-WORDS... HOST env NAME=VALUE... PROGRAM ARGS...
 *
 * ssh and rsh (the agent's first word, by its base name) join the words after HOST with
 * blanks and hand them to a shell on the remote host, so each of those words is
 * shell-quoted here ('...', POSIX sh rules: a csh login shell would misread '!' and
 * newlines) and arrives intact.  Any other agent (`ip netns exec`, a script) is
 * taken to exec its arguments as they are, so they go as separate words, unquoted.
 *
 * The rank's environment travels as `env` words, because an agent does not forward ours:
 * PMI_PORT and PMI_ID (PMI over TCP, pmi_tcp.c), COMPI_PMI_AUTH=stdin (the job's secret
 * waits on the rank's stdin, never on this command line), PMI_RANK, PMI_SIZE, the local rank
 * numbers, COMPI_JOBID, COMPI_OVERSUBSCRIBED=1 under --oversubscribe (otherwise the rank
 * compares its host's ranks with its cores itself), every COMPI_* variable of mpirun's own
 * environment, COMPI_COLL_CONFIG with relative paths made absolute, then -x and --mca
 * (last, so they win).  Not sent: COMPI_CPU_PLACES, which describes this machine.
 *
 * The remote rank starts wherever the agent puts it (ssh: the home directory), so a
 * relative PROGRAM path is made absolute; its arguments are left as given.
 */
#include "core/runtime/launcher/launcher.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

typedef struct agent_vec {
    char **v;
    int n, cap;
    int failed; /* out of memory somewhere: the vector is not usable */
} agent_vec_t;

/* takes ownership of s (NULL: out of memory) */
static void agent__push(agent_vec_t *a, char *s)
{
    if (s == NULL || a->failed) {
        free(s);
        a->failed = 1;
        return;
    }
    if (a->n + 2 > a->cap) {
        int cap = a->cap ? 2 * a->cap : 32;
        char **v = realloc(a->v, (size_t)cap * sizeof(*v));

        if (v == NULL) {
            free(s);
            a->failed = 1;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void agent__pushf(agent_vec_t *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void agent__pushf(agent_vec_t *a, const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;

    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    agent__push(a, s);
}

compi_status_t agent_parse(const char *cmd, char ***words_p, const char *prog)
{
    agent_vec_t a = {0};
    const char *p = cmd;

    for (;;) {
        const char *w;

        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        w = p;
        while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
        agent__push(&a, strndup(w, (size_t)(p - w)));
    }
    if (a.failed || a.n == 0) {
        if (a.failed)
            fprintf(stderr, "%s: out of memory\n", prog);
        else
            fprintf(stderr, "%s: --launch-agent needs a command, got '%s'\n", prog, cmd);
        agent_argv_free(a.v);
        return a.failed ? COMPI_ERR_NO_MEMORY : COMPI_ERR_INVALID_PARAM;
    }
    *words_p = a.v;
    return COMPI_OK;
}

void agent_words_free(char **words)
{
    agent_argv_free(words);
}

/* ssh and rsh hand the command to a remote shell */
static int agent__via_shell(const char *agent0)
{
    const char *slash = strrchr(agent0, '/');
    const char *base = slash != NULL ? slash + 1 : agent0;

    return strcmp(base, "ssh") == 0 || strcmp(base, "rsh") == 0;
}

/* s as one word of a POSIX shell: as is when it holds only safe characters, else '...' */
static char *agent__quote(const char *s)
{
    static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                               "_@%+=:,./-";
    size_t n = 2, k = 0;
    char *q;

    if (*s != '\0' && strspn(s, safe) == strlen(s))
        return strdup(s);
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    q = malloc(n + 1);
    if (q == NULL)
        return NULL;
    q[k++] = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(q + k, "'\\''", 4); /* close, escaped quote, reopen */
            k += 4;
        } else {
            q[k++] = *p;
        }
    }
    q[k++] = '\'';
    q[k] = '\0';
    return q;
}

/* path made absolute against the current directory (as given when already absolute) */
static char *agent__absolute(const char *path)
{
    char cwd[4096], *abs = NULL;

    if (path[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL)
        return strdup(path);
    if (asprintf(&abs, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, path) < 0)
        return NULL;
    return abs;
}

/* "a.scm:/b.scm" -> "/cwd/a.scm:/b.scm" */
static char *agent__absolute_list(const char *list)
{
    agent_vec_t parts = {0};
    const char *p = list;
    size_t total = 1;
    char *out, *o;

    for (;;) {
        const char *end = strchr(p, ':');
        char *item = strndup(p, end != NULL ? (size_t)(end - p) : strlen(p));

        if (item != NULL && item[0] != '\0' && item[0] != '/') {
            char *abs = agent__absolute(item);

            free(item);
            item = abs;
        }
        agent__push(&parts, item);
        if (end == NULL)
            break;
        p = end + 1;
    }
    if (parts.failed) {
        agent_argv_free(parts.v);
        return NULL;
    }
    for (int i = 0; i < parts.n; i++)
        total += strlen(parts.v[i]) + 1;
    out = o = malloc(total);
    for (int i = 0; out != NULL && i < parts.n; i++) {
        size_t len = strlen(parts.v[i]);

        memcpy(o, parts.v[i], len);
        o += len;
        *o++ = i + 1 < parts.n ? ':' : '\0';
    }
    agent_argv_free(parts.v);
    return out;
}

/* the NAME=VALUE words of a remote rank, in the order env applies them */
static void agent__env(const mpirun_job_t *job, const mpirun_rank_t *r, agent_vec_t *env)
{
    const mpirun_opts_t *o = job->opts;
    const char *config = o->coll_config != NULL ? o->coll_config : getenv("COMPI_COLL_CONFIG");

    agent__pushf(env, "PMI_PORT=%s", job->pmi_port);
    agent__pushf(env, "PMI_ID=%d", r->rank);
    /* the secret itself comes on stdin (pmi_tcp.c): this only says where to find it */
    agent__pushf(env, "COMPI_PMI_AUTH=stdin");
    agent__pushf(env, "PMI_RANK=%d", r->rank);
    agent__pushf(env, "PMI_SIZE=%d", job->n);
    agent__pushf(env, "MPI_LOCALRANKID=%d", r->local_rank);
    agent__pushf(env, "MPI_LOCALNRANKS=%d", r->local_size);
    agent__pushf(env, "COMPI_JOBID=%s", job->jobid);
    if (o->oversubscribe)
        agent__pushf(env, "COMPI_OVERSUBSCRIBED=1");
    for (char **e = environ; *e != NULL; e++) {
        static const char *const mine[] = {
            "COMPI_JOBID=",      "COMPI_OVERSUBSCRIBED=", "COMPI_COLL_CONFIG=",
            "COMPI_CPU_PLACES=", "COMPI_PMI_AUTH=",       "COMPI_UNIVERSE=",
            "COMPI_PARENT=",     "COMPI_GID_BASE=",       "COMPI_APPNUM="};
        int skip = strncmp(*e, "COMPI_", 6) != 0 || strchr(*e, '=') == NULL;

        for (size_t k = 0; !skip && k < sizeof(mine) / sizeof(mine[0]); k++)
            skip = strncmp(*e, mine[k], strlen(mine[k])) == 0;
        if (!skip)
            agent__push(env, strdup(*e));
    }
    if (config != NULL && *config != '\0') {
        char *abs = agent__absolute_list(config);

        agent__pushf(env, "COMPI_COLL_CONFIG=%s", abs != NULL ? abs : "");
        if (abs == NULL)
            env->failed = 1;
        free(abs);
    }
    for (int i = 0; i < o->nenv; i++)
        agent__push(env, strdup(o->env[i]));
}

char **agent_argv(const mpirun_job_t *job, const mpirun_rank_t *r, char *why, size_t len)
{
    const mpirun_opts_t *o = job->opts;
    const char *program = o->prog_argv[0];
    agent_vec_t argv = {0}, words = {0};
    int quote = agent__via_shell(o->agent[0]);

    if (strchr(program, '=') != NULL) {
        snprintf(why, len,
                 "cannot start '%s' on %s: env would read a program name holding '=' as a "
                 "variable",
                 program, r->host->name);
        return NULL;
    }
    for (char **a = o->agent; *a != NULL; a++)
        agent__push(&argv, strdup(*a));
    agent__push(&argv, strdup(r->host->name));

    /* the words the agent runs on the host */
    agent__push(&words, strdup("env"));
    agent__env(job, r, &words);
    agent__push(&words, strchr(program, '/') != NULL ? agent__absolute(program) : strdup(program));
    for (char **a = o->prog_argv + 1; *a != NULL; a++)
        agent__push(&words, strdup(*a));

    for (int i = 0; !words.failed && i < words.n; i++) {
        agent__push(&argv, quote ? agent__quote(words.v[i]) : words.v[i]);
        if (quote)
            free(words.v[i]);
        words.v[i] = NULL;
    }
    agent_argv_free(words.v);
    if (argv.failed || words.failed) {
        snprintf(why, len, "out of memory building the command of rank %d", r->rank);
        agent_argv_free(argv.v);
        return NULL;
    }
    return argv.v;
}

void agent_argv_free(char **argv)
{
    for (char **a = argv; a != NULL && *a != NULL; a++)
        free(*a);
    free(argv);
}
