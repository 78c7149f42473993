/*
 * compi_tree.c -- compi-tree: the tree (or other closure) a collective call would get, for
 * a layout of hosts given on the command line, without starting MPI.
 *
 *   compi-tree --config examples/configs/hierarchical.scm --op bcast \
 *       --layout a:4@10.1.0.0/24,b:4@10.2.0.0/24,c:4@10.3.0.0/24 --format svg -o t.svg
 *
 * It starts the Guile bridge and loads the configs exactly as MPI_Init does
 * (bridge_init, bridge_load_config_list: the same messages), then asks (compi tree-tool)
 * for the closure the creator chain builds and its rendering (scheme/bridge_tool.c).
 * --format svg pipes the DOT text through Graphviz's `dot -Tsvg`.  Every error is one
 * line on stderr, "compi-tree: ...", and exit status 1.  docs/compi-tree.md has the
 * details.
 */
#include "scheme/bridge.h"
#include "scheme/bridge_tool.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { FMT_TEXT, FMT_DOT, FMT_SVG };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: compi-tree --layout SPEC --op KIND [--config FILE]... [--root R] [--bytes N]\n"
            "                  [--format text|dot|svg] [-o OUT] [more options]\n"
            "Prints the closure the installed creators build for one collective call on a layout\n"
            "of hosts, as MPI_Init would load the configs, without starting MPI.\n"
            "\n"
            "  --config FILE    a Scheme config (a colon-separated list too); repeat to load\n"
            "                   several, in order.  None: what a job would load\n"
            "                   (COMPI_COLL_CONFIG or COMPI_MCA_coll_config), else the defaults\n"
            "  --layout SPEC    hosts, comma-separated: NAME:COUNT or NAME:COUNT@A.B.C.D/NN.\n"
            "                   Ranks are numbered in order; each rank gets its own address in\n"
            "                   its host's subnet, with that prefix length (10.1.0.1/24, ...)\n"
            "  --op KIND        barrier bcast reduce allreduce gather gatherv scatter scatterv\n"
            "                   allgather allgatherv alltoall alltoallv alltoallw reduce-scatter\n"
            "                   reduce-scatter-block scan exscan neighbor-allgather\n"
            "                   neighbor-allgatherv neighbor-alltoall neighbor-alltoallv\n"
            "                   neighbor-alltoallw\n"
            "  --root R         the call's root (rooted kinds; default 0)\n"
            "  --bytes N        what call-bytes says (default 8; barrier: 0)\n"
            "  --rank R         the rank whose view is shown (default 0)\n"
            "  --datatype NAME  what call-datatype says (default MPI_DOUBLE for reductions,\n"
            "                   MPI_BYTE otherwise)\n"
            "  --reduce-op NAME what call-op says, reductions only (default MPI_SUM)\n"
            "  --non-commutative  the reduction's op is not commutative (a user op)\n"
            "  --format F       text (default): the tree, one rank per line, indented;\n"
            "                   dot: Graphviz; svg: dot's SVG (needs Graphviz's dot program)\n"
            "  -o OUT           write to OUT instead of standard output\n"
            "  --help, --version\n"
            "\n"
            "Example:\n"
            "  compi-tree --config examples/configs/hierarchical.scm --op bcast \\\n"
            "      --layout a:4@10.1.0.0/24,b:4@10.2.0.0/24,c:4@10.3.0.0/24\n"
            "Errors (bad layout, bad config, a creator that fails) print one line and exit 1.\n");
}

static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
    va_list ap;

    fputs("compi-tree: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* a non-negative decimal number no larger than max, or -1 */
static long parse_count(const char *s, long max)
{
    char *end;

    if (s[0] < '0' || s[0] > '9') {
        return -1;
    }
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno == 0 && *end == '\0' && v <= max ? v : -1;
}

static int is_rooted(bridge_kind_t k)
{
    return k == BRIDGE_KIND_BCAST || k == BRIDGE_KIND_REDUCE || k == BRIDGE_KIND_GATHER ||
           k == BRIDGE_KIND_GATHERV || k == BRIDGE_KIND_SCATTER || k == BRIDGE_KIND_SCATTERV;
}

static int is_reduction(bridge_kind_t k)
{
    return k == BRIDGE_KIND_REDUCE || k == BRIDGE_KIND_ALLREDUCE ||
           k == BRIDGE_KIND_REDUCE_SCATTER || k == BRIDGE_KIND_REDUCE_SCATTER_BLOCK ||
           k == BRIDGE_KIND_SCAN || k == BRIDGE_KIND_EXSCAN;
}

/* "reduce_scatter" and "Bcast" name kinds too */
static bridge_kind_t kind_from_arg(const char *arg)
{
    char name[64];
    size_t i;

    for (i = 0; arg[i] != '\0' && i + 1 < sizeof(name); i++) {
        char c = arg[i];
        name[i] = c == '_' ? '-' : (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
    }
    name[i] = '\0';
    return arg[i] == '\0' ? bridge_kind_from_name(name) : BRIDGE_KIND_COUNT;
}

/* Graphviz's dot in PATH, into buf; 0 when there is none */
static int find_dot(char *buf, size_t len)
{
    const char *path = getenv("PATH");

    while (path != NULL && *path != '\0') {
        const char *colon = strchr(path, ':');
        size_t n = colon != NULL ? (size_t)(colon - path) : strlen(path);
        if (n > 0 && snprintf(buf, len, "%.*s/dot", (int)n, path) < (int)len &&
            access(buf, X_OK) == 0) {
            return 1;
        }
        path = colon != NULL ? colon + 1 : NULL;
    }
    return 0;
}

/* Runs `dot -Tsvg' on the DOT text; its output in *svg_p (malloc'd).  dot reads all of
 * its input before it writes, so the input is written whole, then the output read. */
static int run_dot(const char *dot_text, char **svg_p)
{
    char prog[PATH_MAX];
    int in[2] = {-1, -1}, out[2] = {-1, -1}, rc = 1, status;
    char *svg = NULL;
    size_t used = 0, cap = 0;

    if (!find_dot(prog, sizeof(prog))) {
        return fail("--format svg needs Graphviz's dot program, which is not in PATH "
                    "(Debian: apt-get install graphviz); --format dot writes the graph instead");
    }
    if (pipe(in) != 0 || pipe(out) != 0) {
        fail("cannot run %s: %s", prog, strerror(errno));
        goto out;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fail("cannot run %s: %s", prog, strerror(errno));
        goto out;
    }
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(prog, "dot", "-Tsvg", (char *)NULL);
        fprintf(stderr, "compi-tree: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    close(in[0]), close(out[1]);
    in[0] = out[1] = -1;
    for (size_t off = 0, n = strlen(dot_text); off < n;) {
        ssize_t w = write(in[1], dot_text + off, n - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            break; /* dot stopped reading: its exit status says why */
        }
        off += (size_t)w;
    }
    close(in[1]);
    in[1] = -1;
    for (;;) {
        if (used + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *bigger = realloc(svg, cap);
            if (bigger == NULL) {
                fail("out of memory");
                break;
            }
            svg = bigger;
        }
        ssize_t r = read(out[0], svg + used, cap - used - 1);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        used += (size_t)r;
    }
    close(out[0]);
    out[0] = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fail("%s -Tsvg failed (%s %d)", prog, WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        goto out;
    }
    if (svg == NULL) {
        goto out;
    }
    svg[used] = '\0';
    *svg_p = svg;
    svg = NULL;
    rc = 0;
out:
    for (int i = 0; i < 2; i++) {
        if (in[i] >= 0) {
            close(in[i]);
        }
        if (out[i] >= 0) {
            close(out[i]);
        }
    }
    free(svg);
    return rc;
}

static int write_out(const char *path, const char *text)
{
    FILE *f = path != NULL ? fopen(path, "w") : stdout;

    if (f == NULL) {
        return fail("cannot write %s: %s", path, strerror(errno));
    }
    int bad = fputs(text, f) == EOF;
    bad |= path != NULL ? fclose(f) != 0 : fflush(f) != 0;
    if (bad) {
        return fail("cannot write %s: %s", path != NULL ? path : "standard output",
                    strerror(errno));
    }
    return 0;
}

enum {
    OPT_CONFIG = 256,
    OPT_LAYOUT,
    OPT_OP,
    OPT_ROOT,
    OPT_RANK,
    OPT_BYTES,
    OPT_DATATYPE,
    OPT_REDUCE_OP,
    OPT_NONCOMM,
    OPT_FORMAT,
    OPT_VERSION
};

static const struct option options[] = {
    {"config", required_argument, NULL, OPT_CONFIG},
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"op", required_argument, NULL, OPT_OP},
    {"root", required_argument, NULL, OPT_ROOT},
    {"rank", required_argument, NULL, OPT_RANK},
    {"bytes", required_argument, NULL, OPT_BYTES},
    {"datatype", required_argument, NULL, OPT_DATATYPE},
    {"reduce-op", required_argument, NULL, OPT_REDUCE_OP},
    {"non-commutative", no_argument, NULL, OPT_NONCOMM},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
    bridge_tree_request_t req = {.kind = BRIDGE_KIND_COUNT, .root = -1, .commutative = 1};
    const char **configs = calloc((size_t)argc, sizeof(*configs));
    const char *op_arg = NULL, *root_arg = NULL, *bytes_arg = NULL, *out_path = NULL;
    int nconfigs = 0, format = FMT_TEXT, opt, rc = 1;
    char errbuf[2048], *text = NULL, *svg = NULL;

    if (configs == NULL) {
        return fail("out of memory");
    }
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) != -1) {
        switch (opt) {
        case OPT_CONFIG:
            configs[nconfigs++] = optarg;
            break;
        case OPT_LAYOUT:
            req.layout = optarg;
            break;
        case OPT_OP:
            op_arg = optarg;
            break;
        case OPT_ROOT:
            root_arg = optarg;
            break;
        case OPT_RANK:
            if ((req.rank = parse_count(optarg, INT_MAX)) < 0) {
                fail("--rank '%s' is not a rank (a number from 0)", optarg);
                goto out;
            }
            break;
        case OPT_BYTES:
            bytes_arg = optarg;
            break;
        case OPT_DATATYPE:
            req.datatype = optarg;
            break;
        case OPT_REDUCE_OP:
            req.op = optarg;
            break;
        case OPT_NONCOMM:
            req.commutative = 0;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0) {
                format = FMT_TEXT;
            } else if (strcmp(optarg, "dot") == 0) {
                format = FMT_DOT;
            } else if (strcmp(optarg, "svg") == 0) {
                format = FMT_SVG;
            } else {
                fail("--format '%s' is not one of text, dot, svg", optarg);
                goto out;
            }
            break;
        case 'o':
            out_path = optarg;
            break;
        case 'h':
            usage(stdout);
            rc = 0;
            goto out;
        case OPT_VERSION:
            printf("compi-tree (compi) %s\n", PACKAGE_VERSION);
            rc = 0;
            goto out;
        case ':':
            fail("%s needs an argument (see compi-tree --help)", argv[optind - 1]);
            goto out;
        default:
            fail("unknown option '%s' (see compi-tree --help)", argv[optind - 1]);
            goto out;
        }
    }
    if (optind < argc) {
        fail("unexpected argument '%s' (see compi-tree --help)", argv[optind]);
        goto out;
    }
    if (req.layout == NULL || op_arg == NULL) {
        fail("missing %s (see compi-tree --help)", req.layout == NULL ? "--layout" : "--op");
        goto out;
    }

    /* the call: what a job's trampoline would hand to bridge_build_closure */
    if ((req.kind = kind_from_arg(op_arg)) == BRIDGE_KIND_COUNT) {
        fail("--op '%s' is not a collective kind (barrier, bcast, reduce, allreduce, gather, "
             "gatherv, scatter, scatterv, allgather, allgatherv, alltoall, alltoallv, "
             "alltoallw, reduce-scatter, reduce-scatter-block, scan, exscan, neighbor-allgather, "
             "neighbor-allgatherv, neighbor-alltoall, neighbor-alltoallv, neighbor-alltoallw)",
             op_arg);
        goto out;
    }
    const char *kind = bridge_kind_name(req.kind);
    if (root_arg != NULL && !is_rooted(req.kind)) {
        fail("--root: %s has no root", kind);
        goto out;
    }
    if (is_rooted(req.kind) &&
        (req.root = root_arg != NULL ? parse_count(root_arg, INT_MAX) : 0) < 0) {
        fail("--root '%s' is not a rank (a number from 0)", root_arg);
        goto out;
    }
    long bytes = req.kind == BRIDGE_KIND_BARRIER ? 0 : 8;
    if (bytes_arg != NULL && (bytes = parse_count(bytes_arg, LONG_MAX)) < 0) {
        fail("--bytes '%s' is not a number of bytes", bytes_arg);
        goto out;
    }
    if (req.kind == BRIDGE_KIND_BARRIER && bytes != 0) {
        fail("--bytes: barrier moves no data (its calls have 0 bytes)");
        goto out;
    }
    req.bytes = (unsigned long)bytes;
    if (!is_reduction(req.kind) && (req.op != NULL || !req.commutative)) {
        fail("%s: %s is not a reduction", req.op != NULL ? "--reduce-op" : "--non-commutative",
             kind);
        goto out;
    }
    if (is_reduction(req.kind) && req.op == NULL) {
        req.op = req.commutative ? "MPI_SUM" : "user";
    }
    if (req.datatype == NULL) {
        req.datatype = is_reduction(req.kind) ? "MPI_DOUBLE" : "MPI_BYTE";
    }
    if (req.layout[0] == '\0' || req.datatype[0] == '\0' || (req.op && req.op[0] == '\0')) {
        fail("%s is empty", req.layout[0] == '\0'     ? "--layout"
                            : req.datatype[0] == '\0' ? "--datatype"
                                                      : "--reduce-op");
        goto out;
    }

    /* the configs, as MPI_Init loads them */
    if (bridge_init(errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    if (nconfigs == 0 &&
        bridge_load_config_list(bridge_config_list(), errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    for (int i = 0; i < nconfigs; i++) {
        if (bridge_load_config_list(configs[i], errbuf, sizeof(errbuf)) != COMPI_OK) {
            fail("%s", errbuf);
            goto out;
        }
    }

    req.dot = format != FMT_TEXT;
    if (bridge_tree_render(&req, &text, errbuf, sizeof(errbuf)) != COMPI_OK) {
        fail("%s", errbuf);
        goto out;
    }
    if (format == FMT_SVG) {
        signal(SIGPIPE, SIG_IGN); /* dot may stop reading: write() then says so */
        if (run_dot(text, &svg) != 0) {
            goto out;
        }
    }
    rc = write_out(out_path, svg != NULL ? svg : text);
out:
    free(text);
    free(svg);
    free(configs);
    return rc;
}
