/*
 * iof.c -- --tag-output: ranks' stdout and stderr come through pipes and leave mpirun one
 * whole line at a time, prefixed "[1,RANK]<stdout>:" like Open MPI's mpirun (a spawned
 * sub-job k: "[k+1,RANK]").
 *
 * Each tagged line goes out in a single write, so lines of different ranks never mix
 * inside a line.  A last line without a newline is written out with one added when the
 * stream ends: nothing is lost or cut at job end.
 */
#include "core/runtime/launcher/launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a line longer than this is written out in pieces rather than held without bound */
#define IOF_LINE_MAX (1 << 20)
#define IOF_READ_CHUNK 65536

void iof_stream_init(iof_stream_t *s, int fd, int rank, int is_err)
{
    s->fd = fd;
    s->rank = rank;
    s->sub = 0;
    s->is_err = is_err;
    s->buf = NULL;
    s->len = 0;
    s->cap = 0;
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);

        if (w < 0 && errno == EINTR)
            continue;
        /* our own stdout gone (closed pipe): the output has nowhere to go */
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static void emit_line(const iof_stream_t *s, const char *line, size_t n)
{
    char tag[64];
    int tlen = snprintf(tag, sizeof(tag), "[%d,%d]<%s>:", s->sub + 1, s->rank,
                        s->is_err ? "stderr" : "stdout");
    size_t total = (size_t)tlen + n + 1;
    char *out = malloc(total);

    if (out == NULL) {
        /* no memory for one buffer: still write the line, in three pieces */
        write_all(s->is_err ? 2 : 1, tag, (size_t)tlen);
        write_all(s->is_err ? 2 : 1, line, n);
        write_all(s->is_err ? 2 : 1, "\n", 1);
        return;
    }
    memcpy(out, tag, (size_t)tlen);
    memcpy(out + tlen, line, n);
    out[total - 1] = '\n';
    write_all(s->is_err ? 2 : 1, out, total);
    free(out);
}

/* writes out every whole line buffered, keeps the incomplete tail */
static void emit_lines(iof_stream_t *s)
{
    size_t start = 0;
    char *nl;

    while ((nl = memchr(s->buf + start, '\n', s->len - start)) != NULL) {
        size_t n = (size_t)(nl - (s->buf + start));

        emit_line(s, s->buf + start, n);
        start += n + 1;
    }
    if (s->len - start >= IOF_LINE_MAX) {
        emit_line(s, s->buf + start, s->len - start);
        start = s->len;
    }
    memmove(s->buf, s->buf + start, s->len - start);
    s->len -= start;
}

static int grow(iof_stream_t *s, size_t need)
{
    size_t cap = s->cap ? s->cap : 4096;
    char *p;

    if (s->len + need <= s->cap)
        return 0;
    while (cap < s->len + need)
        cap *= 2;
    p = realloc(s->buf, cap);
    if (p == NULL)
        return -1;
    s->buf = p;
    s->cap = cap;
    return 0;
}

static void close_stream(iof_stream_t *s)
{
    if (s->len > 0)
        emit_line(s, s->buf, s->len);
    s->len = 0;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

/* one read: 1 data, 0 end of file (stream closed), -1 nothing there now */
static int read_once(iof_stream_t *s)
{
    ssize_t got;

    if (grow(s, IOF_READ_CHUNK) != 0) {
        /* cannot buffer: flush what we hold as a line so reading can go on */
        emit_line(s, s->buf, s->len);
        s->len = 0;
        if (grow(s, IOF_READ_CHUNK) != 0)
            return -1;
    }
    do {
        got = read(s->fd, s->buf + s->len, IOF_READ_CHUNK);
    } while (got < 0 && errno == EINTR);
    if (got > 0) {
        s->len += (size_t)got;
        emit_lines(s);
        return 1;
    }
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return -1;
    close_stream(s);
    return 0;
}

void iof_stream_readable(iof_stream_t *s)
{
    if (s->fd >= 0)
        read_once(s);
}

void iof_stream_finish(iof_stream_t *s)
{
    while (s->fd >= 0 && read_once(s) > 0)
        ;
    if (s->fd >= 0)
        close_stream(s);
}

void iof_stream_destroy(iof_stream_t *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}
