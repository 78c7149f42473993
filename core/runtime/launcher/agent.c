/*
 * agent.c -- the command line that starts a rank on another host through the launch agent:
 *
 *     AGENT-WORDS... HOST env NAME=VALUE... sh -c SCRIPT compi-rank PROGRAM ARGS
 *
 * ssh and rsh (the agent's first word, by its base name) join the words after HOST with
 * blanks and hand them to a shell on the remote host, so each of those words is
 * shell-quoted here ('...', POSIX sh rules: a csh login shell would misread '!' and
 * newlines) and arrives intact.  Any other agent (`ip netns exec`, a script) is
 * taken to exec its arguments as they are, so they go as separate words, unquoted.
 *
 * The rank's environment travels with it, because an agent does not forward ours.  The
 * `env` words carry only what the launcher itself sets, none of it secret: PMI_PORT and
 * PMI_ID (PMI over TCP, pmi_tcp.c), COMPI_PMI_AUTH=stdin (the job's secret waits on the
 * rank's stdin), PMI_RANK, PMI_SIZE, the local rank numbers, COMPI_JOBID, and
 * COMPI_OVERSUBSCRIBED=1 under --oversubscribe (otherwise the rank compares its host's
 * ranks with its cores itself).  The user's values, which anyone could read on a command
 * line with ps, go on the agent's stdin instead, ahead of the secret (agent_stdin_env):
 * every COMPI_* variable of mpirun's own environment, COMPI_COLL_CONFIG with relative
 * paths made absolute, then -x and --mca (last, so they win).  SCRIPT, run by the remote
 * sh, reads and exports them, then execs PROGRAM; their names must be shell names.  Not
 * sent: COMPI_CPU_PLACES, which describes this machine.
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

/* 1 when name (up to its '=') is a name a POSIX shell can export */
static int agent__shell_name(const char *name)
{
    size_t n = strcspn(name, "=");

    if (n == 0 || (name[0] >= '0' && name[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_", name[i]) ==
            NULL)
            return 0;
    return 1;
}

/*
 * The NAME=VALUE settings of a remote rank, in the order they apply: the launcher's own
 * (PMI, rank numbers, job id) go to line, which the agent's command line carries; the
 * user's values (this environment's COMPI_* variables, --coll-config, -x, --mca) go to
 * user, which travels on the agent's stdin.
 */
static void agent__env(const mpirun_job_t *job, const mpirun_rank_t *r, agent_vec_t *line,
                       agent_vec_t *user)
{
    const mpirun_opts_t *o = job->opts;
    const char *config = o->coll_config != NULL ? o->coll_config : getenv("COMPI_COLL_CONFIG");

    agent__pushf(line, "PMI_PORT=%s", job->pmi_port);
    agent__pushf(line, "PMI_ID=%d", r->rank);
    /* the secret itself comes on stdin (pmi_tcp.c): this only says where to find it */
    agent__pushf(line, "COMPI_PMI_AUTH=stdin");
    agent__pushf(line, "PMI_RANK=%d", r->rank);
    agent__pushf(line, "PMI_SIZE=%d", job->n);
    agent__pushf(line, "MPI_LOCALRANKID=%d", r->local_rank);
    agent__pushf(line, "MPI_LOCALNRANKS=%d", r->local_size);
    agent__pushf(line, "COMPI_JOBID=%s", job->jobid);
    if (o->oversubscribe)
        agent__pushf(line, "COMPI_OVERSUBSCRIBED=1");
    for (char **e = environ; *e != NULL; e++) {
        static const char *const mine[] = {
            "COMPI_JOBID=",      "COMPI_OVERSUBSCRIBED=", "COMPI_COLL_CONFIG=",
            "COMPI_CPU_PLACES=", "COMPI_PMI_AUTH=",       "COMPI_UNIVERSE=",
            "COMPI_PARENT=",     "COMPI_GID_BASE=",       "COMPI_APPNUM="};
        int skip = strncmp(*e, "COMPI_", 6) != 0 || strchr(*e, '=') == NULL;

        for (size_t k = 0; !skip && k < sizeof(mine) / sizeof(mine[0]); k++)
            skip = strncmp(*e, mine[k], strlen(mine[k])) == 0;
        if (!skip)
            agent__push(user, strdup(*e));
    }
    if (config != NULL && *config != '\0') {
        char *abs = agent__absolute_list(config);

        agent__pushf(user, "COMPI_COLL_CONFIG=%s", abs != NULL ? abs : "");
        if (abs == NULL)
            user->failed = 1;
        free(abs);
    }
    for (int i = 0; i < o->nenv; i++)
        agent__push(user, strdup(o->env[i]));
}

/*
 * What the remote shell runs before the program: it reads NAME=VALUE lines from stdin up
 * to an empty line, VALUE with every byte but a few safe ones written as printf's \0ooo
 * (so a line holds no blank, quote, backslash or newline of the value), exports them and
 * execs its arguments.  The shell's read takes one byte at a time from a pipe, so the
 * secret's line after them stays for the rank.  No '!' and no newline: a csh login shell
 * would misread them (agent__quote).
 */
static const char agent__script[] =
    "while IFS= read -r v && [ -n \"$v\" ]; do x=$(printf '%bx' \"${v#*=}\") && "
    "export \"${v%%=*}=${x%x}\" || exit 127; done; exec \"$@\"";

char **agent_argv(const mpirun_job_t *job, const mpirun_rank_t *r, char *why, size_t len)
{
    const mpirun_opts_t *o = job->opts;
    const char *program = o->prog_argv[0];
    agent_vec_t argv = {0}, words = {0}, user = {0};
    int quote = agent__via_shell(o->agent[0]);

    for (char **a = o->agent; *a != NULL; a++)
        agent__push(&argv, strdup(*a));
    agent__push(&argv, strdup(r->host->name));

    /* the words the agent runs on the host: env LINE-VARS sh -c SCRIPT compi-rank PROGRAM ARGS */
    agent__push(&words, strdup("env"));
    agent__env(job, r, &words, &user);
    agent_argv_free(user.v);
    agent__push(&words, strdup("sh"));
    agent__push(&words, strdup("-c"));
    agent__push(&words, strdup(agent__script));
    agent__push(&words, strdup("compi-rank"));
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
    if (argv.failed || words.failed || user.failed) {
        snprintf(why, len, "out of memory building the command of rank %d", r->rank);
        agent_argv_free(argv.v);
        return NULL;
    }
    return argv.v;
}

char *agent_stdin_env(const mpirun_job_t *job, const mpirun_rank_t *r, char *why, size_t len)
{
    agent_vec_t line = {0}, user = {0};
    size_t total = 2;
    char *out = NULL, *o;

    agent__env(job, r, &line, &user);
    agent_argv_free(line.v);
    for (int i = 0; !user.failed && i < user.n; i++) {
        if (!agent__shell_name(user.v[i])) {
            snprintf(why, len,
                     "cannot hand rank %d on %s the variable '%.*s': a remote shell cannot "
                     "export that name",
                     r->rank, r->host->name, (int)strcspn(user.v[i], "="), user.v[i]);
            agent_argv_free(user.v);
            return NULL;
        }
        total += 5 * strlen(user.v[i]) + 1;
    }
    if (!user.failed)
        out = malloc(total);
    if (out == NULL) {
        snprintf(why, len, "out of memory building the variables of rank %d", r->rank);
        agent_argv_free(user.v);
        return NULL;
    }
    o = out;
    for (int i = 0; i < user.n; i++) {
        const char *eq = strchr(user.v[i], '=');

        memcpy(o, user.v[i], (size_t)(eq + 1 - user.v[i]));
        o += eq + 1 - user.v[i];
        for (const unsigned char *p = (const unsigned char *)eq + 1; *p; p++) {
            if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,+@=-",
                       *p) != NULL)
                *o++ = (char)*p;
            else
                o += sprintf(o, "\\0%03o", *p);
        }
        *o++ = '\n';
    }
    *o++ = '\n';
    *o = '\0';
    agent_argv_free(user.v);
    return out;
}

void agent_argv_free(char **argv)
{
    for (char **a = argv; a != NULL && *a != NULL; a++)
        free(*a);
    free(argv);
}
