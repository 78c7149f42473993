/*
 * pmi_wire.c -- parse and format PMI-1 wire lines; split a byte stream into lines.
 *
 * Nothing here logs: callers know whether a bad line is a client bug (the server says
 * which rank sent it) or a launcher we cannot talk to (the client reports it).
 */
#include "core/runtime/pmi_wire.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

int pmi_wire_is_text_key(const char *key)
{
    return strcmp(key, "message") == 0 || strcmp(key, "error_msg") == 0;
}

compi_status_t pmi_wire_parse(const char *line, size_t len, pmi_wire_msg_t *msg)
{
    char *p, *end;

    msg->nfields = 0;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (len >= sizeof(msg->buf))
        return COMPI_ERR_TRUNCATE;
    memcpy(msg->buf, line, len);
    msg->buf[len] = '\0';

    p = msg->buf;
    end = msg->buf + len;
    for (;;) {
        char *tok, *eq;

        while (p < end && is_blank(*p))
            p++;
        if (p == end)
            break;
        if (msg->nfields == PMI_WIRE_MAXFIELDS)
            return COMPI_ERR_INVALID_PARAM;
        tok = p;
        while (p < end && !is_blank(*p))
            p++;
        eq = memchr(tok, '=', (size_t)(p - tok));
        if (eq == NULL || eq == tok)
            return COMPI_ERR_INVALID_PARAM;
        *eq = '\0';
        msg->field[msg->nfields].key = tok;
        msg->field[msg->nfields].value = eq + 1;
        msg->nfields++;
        if (pmi_wire_is_text_key(tok)) {
            /* free text runs to the end of the line, trailing blanks dropped */
            while (end > eq + 1 && is_blank(end[-1]))
                end--;
            *end = '\0';
            break;
        }
        if (p < end)
            *p++ = '\0';
    }
    return msg->nfields > 0 ? COMPI_OK : COMPI_ERR_INVALID_PARAM;
}

const char *pmi_wire_get(const pmi_wire_msg_t *msg, const char *key)
{
    for (int i = 0; i < msg->nfields; i++)
        if (strcmp(msg->field[i].key, key) == 0)
            return msg->field[i].value;
    return NULL;
}

const char *pmi_wire_cmd(const pmi_wire_msg_t *msg)
{
    const char *cmd = pmi_wire_get(msg, "cmd");

    return cmd != NULL ? cmd : pmi_wire_get(msg, "mcmd");
}

compi_status_t pmi_wire_get_int(const pmi_wire_msg_t *msg, const char *key, int *value_p)
{
    const char *s = pmi_wire_get(msg, key);
    char *endp;
    long v;

    if (s == NULL)
        return COMPI_ERR_NOT_FOUND;
    errno = 0;
    v = strtol(s, &endp, 10);
    if (*s == '\0' || *endp != '\0' || errno != 0 || v < INT_MIN || v > INT_MAX)
        return COMPI_ERR_INVALID_PARAM;
    *value_p = (int)v;
    return COMPI_OK;
}

/* appends "sep key=value" with the checks pmi_wire_format promises */
static compi_status_t append_field(char *buf, size_t cap, size_t *pos, const char *key,
                                   const char *value, int text)
{
    size_t klen = strlen(key), vlen = strlen(value);

    if (klen == 0 || strpbrk(key, " \t\n\r=") != NULL)
        return COMPI_ERR_INVALID_PARAM;
    if (!text && strpbrk(value, " \t\n\r") != NULL)
        return COMPI_ERR_INVALID_PARAM;
    /* separator, key, '=', value, and room left for "\n" and NUL */
    if (*pos + 1 + klen + 1 + vlen + 2 > cap)
        return COMPI_ERR_TRUNCATE;
    if (*pos > 0)
        buf[(*pos)++] = ' ';
    memcpy(buf + *pos, key, klen);
    *pos += klen;
    buf[(*pos)++] = '=';
    for (size_t i = 0; i < vlen; i++)
        buf[(*pos)++] = (value[i] == '\n' || value[i] == '\r') ? ' ' : value[i];
    return COMPI_OK;
}

compi_status_t pmi_wire_format_list(char *buf, size_t size, size_t *len_p, const char *cmd,
                                    const char *const *kv, int n)
{
    size_t cap = size < PMI_WIRE_MAXLINE ? size : PMI_WIRE_MAXLINE;
    size_t pos = 0;
    compi_status_t st;
    int text_seen = 0;

    if (cmd == NULL || n % 2 != 0)
        return COMPI_ERR_INVALID_PARAM;
    st = append_field(buf, cap, &pos, "cmd", cmd, 0);
    if (st != COMPI_OK)
        return st;
    for (int i = 0; i < n; i += 2) {
        int text = pmi_wire_is_text_key(kv[i]);

        if (kv[i + 1] == NULL || text_seen)
            return COMPI_ERR_INVALID_PARAM;
        st = append_field(buf, cap, &pos, kv[i], kv[i + 1], text);
        if (st != COMPI_OK)
            return st;
        text_seen = text;
    }
    buf[pos++] = '\n';
    buf[pos] = '\0';
    if (len_p != NULL)
        *len_p = pos;
    return COMPI_OK;
}

compi_status_t pmi_wire_format(char *buf, size_t size, size_t *len_p, const char *cmd, ...)
{
    const char *kv[2 * PMI_WIRE_MAXFIELDS];
    const char *key;
    int n = 0;
    va_list ap;

    va_start(ap, cmd);
    while ((key = va_arg(ap, const char *)) != NULL) {
        if (n + 2 > (int)(sizeof(kv) / sizeof(kv[0]))) {
            va_end(ap);
            return COMPI_ERR_INVALID_PARAM;
        }
        kv[n++] = key;
        kv[n++] = va_arg(ap, const char *);
    }
    va_end(ap);
    return pmi_wire_format_list(buf, size, len_p, cmd, kv, n);
}

void pmi_wire_reader_init(pmi_wire_reader_t *r)
{
    r->len = 0;
    r->discarding = 0;
}

size_t pmi_wire_reader_feed(pmi_wire_reader_t *r, const char *data, size_t n)
{
    size_t room = sizeof(r->buf) - r->len;

    if (n > room)
        n = room;
    memcpy(r->buf + r->len, data, n);
    r->len += n;
    return n;
}

ssize_t pmi_wire_reader_fill(pmi_wire_reader_t *r, int fd)
{
    size_t room = sizeof(r->buf) - r->len;
    ssize_t got;

    if (room == 0) {
        /* the caller must take the (over-long) line out first */
        errno = ENOBUFS;
        return -1;
    }
    do {
        got = read(fd, r->buf + r->len, room);
    } while (got < 0 && errno == EINTR);
    if (got > 0)
        r->len += (size_t)got;
    return got;
}

static void consume(pmi_wire_reader_t *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

ssize_t pmi_wire_reader_next(pmi_wire_reader_t *r, char *line, int *truncated_p)
{
    char *nl;
    size_t n;

    *truncated_p = 0;
    while (r->discarding) {
        nl = memchr(r->buf, '\n', r->len);
        if (nl == NULL) {
            r->len = 0;
            return -1;
        }
        consume(r, (size_t)(nl - r->buf) + 1);
        r->discarding = 0;
    }

    nl = memchr(r->buf, '\n', r->len);
    if (nl != NULL) {
        n = (size_t)(nl - r->buf);
        memcpy(line, r->buf, n);
        line[n] = '\0';
        consume(r, n + 1);
        return (ssize_t)n;
    }
    if (r->len < sizeof(r->buf))
        return -1;

    /* full buffer and no newline: hand out what fits, drop the rest of this line */
    n = sizeof(r->buf) - 1;
    memcpy(line, r->buf, n);
    line[n] = '\0';
    consume(r, sizeof(r->buf));
    r->discarding = 1;
    *truncated_p = 1;
    return (ssize_t)n;
}

size_t pmi_wire_reader_pending(const pmi_wire_reader_t *r)
{
    return r->len;
}

compi_status_t pmi_wire_hex_encode(const char *s, char *out, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    size_t n = strlen(s);

    if (2 * n + 1 > size)
        return COMPI_ERR_TRUNCATE;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[(unsigned char)s[i] >> 4];
        out[2 * i + 1] = digits[(unsigned char)s[i] & 15];
    }
    out[2 * n] = '\0';
    return COMPI_OK;
}

static int pmi_wire__nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

compi_status_t pmi_wire_hex_decode(const char *hex, char *out, size_t size)
{
    size_t n = strlen(hex);

    if (n % 2 != 0)
        return COMPI_ERR_INVALID_PARAM;
    if (n / 2 + 1 > size)
        return COMPI_ERR_TRUNCATE;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = pmi_wire__nibble(hex[2 * i]), lo = pmi_wire__nibble(hex[2 * i + 1]);

        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
            return COMPI_ERR_INVALID_PARAM;
        out[i] = (char)(hi << 4 | lo);
    }
    out[n / 2] = '\0';
    return COMPI_OK;
}
