/*
 * pmi_wire.h -- lines of the PMI-1 wire protocol ("simple PMI" of MPICH), shared by the
 * client (core/runtime/pmi.c) and mpirun's server (core/runtime/launcher/pmi_server.c).
 *
 * A line is "cmd=NAME key=value key=value ...\n": fields separated by spaces, each split at
 * its first '='.  Values carry no spaces, except the free-text fields "message" and
 * "error_msg" (abort reasons), which run to the end of the line and so must come last.
 *
 * Ownership: a pmi_wire_msg_t holds its own copy of the line; the strings that
 * pmi_wire_get() returns point into it and live as long as the message.  A reader is a
 * caller-owned struct with a fixed buffer; nothing here allocates.
 */
#ifndef COMPI_PMI_WIRE_H
#define COMPI_PMI_WIRE_H

#include "core/include/compi_status.h"

#include <stddef.h>
#include <sys/types.h>

/* limits that mpirun announces in its "maxes" reply */
#define PMI_WIRE_KVSNAME_MAX 256
#define PMI_WIRE_KEYLEN_MAX 256
#define PMI_WIRE_VALLEN_MAX 1024
/* longest line, newline included: a put with the longest kvsname, key and value fits */
#define PMI_WIRE_MAXLINE 4096
#define PMI_WIRE_MAXFIELDS 32

typedef struct pmi_wire_field {
    const char *key;
    const char *value;
} pmi_wire_field_t;

typedef struct pmi_wire_msg {
    char buf[PMI_WIRE_MAXLINE];
    pmi_wire_field_t field[PMI_WIRE_MAXFIELDS];
    int nfields;
} pmi_wire_msg_t;

/*
 * Parses one line (with or without its trailing newline).  COMPI_ERR_TRUNCATE when it does
 * not fit PMI_WIRE_MAXLINE; COMPI_ERR_INVALID_PARAM for a field without '=', an empty key,
 * too many fields or an empty line.
 */
compi_status_t pmi_wire_parse(const char *line, size_t len, pmi_wire_msg_t *msg);

/* value of the first field named `key`, NULL when absent */
const char *pmi_wire_get(const pmi_wire_msg_t *msg, const char *key);
/* the command: value of "cmd" (or "mcmd", multi-line commands); NULL when absent */
const char *pmi_wire_cmd(const pmi_wire_msg_t *msg);
/* integer value of `key`: COMPI_ERR_NOT_FOUND when absent, INVALID_PARAM when not a number */
compi_status_t pmi_wire_get_int(const pmi_wire_msg_t *msg, const char *key, int *value_p);

/* 1 for the free-text fields that may hold spaces and must come last on a line */
int pmi_wire_is_text_key(const char *key);

/*
 * Formats "cmd=<cmd> k1=v1 k2=v2 ...\n" into buf from a NULL-terminated list of key, value
 * strings; *len_p gets the length (without the terminating NUL).  Refuses (INVALID_PARAM)
 * keys or values holding spaces, '=' in keys, newlines; a free-text field not last; and
 * (TRUNCATE) a line longer than `size` - 1 or PMI_WIRE_MAXLINE - 1.  Newlines in a
 * free-text value become spaces.
 */
compi_status_t pmi_wire_format(char *buf, size_t size, size_t *len_p, const char *cmd, ...)
    __attribute__((sentinel));
/* the same from an array of n strings (key, value, key, value, ...) */
compi_status_t pmi_wire_format_list(char *buf, size_t size, size_t *len_p, const char *cmd,
                                    const char *const *kv, int n);

/*
 * Values that may hold any byte (a spawned program's arguments, messages) travel as hex:
 * encode writes 2 * strlen(s) digits and a NUL into out (TRUNCATE when `size` is too
 * small); decode undoes it, TRUNCATE / INVALID_PARAM likewise.
 */
compi_status_t pmi_wire_hex_encode(const char *s, char *out, size_t size);
compi_status_t pmi_wire_hex_decode(const char *hex, char *out, size_t size);

/*
 * Line reader over a byte stream that arrives in arbitrary pieces.  Fill it (from a file
 * descriptor or from memory), then take whole lines out.  A line longer than the buffer
 * comes out cut to PMI_WIRE_MAXLINE - 1 bytes with *truncated_p set; the rest of it, up
 * to its newline, is dropped.
 */
typedef struct pmi_wire_reader {
    char buf[PMI_WIRE_MAXLINE];
    size_t len;
    int discarding; /* dropping the tail of an over-long line */
} pmi_wire_reader_t;

void pmi_wire_reader_init(pmi_wire_reader_t *r);
/* copies as much of data as fits; returns the number of bytes taken */
size_t pmi_wire_reader_feed(pmi_wire_reader_t *r, const char *data, size_t n);
/* one read(2) into the free space: >0 bytes read, 0 end of file, -1 error (errno set) */
ssize_t pmi_wire_reader_fill(pmi_wire_reader_t *r, int fd);
/*
 * Takes the next whole line out, without its newline, NUL-terminated in `line` (which has
 * room for PMI_WIRE_MAXLINE bytes).  Returns its length, or -1 when no whole line is
 * buffered yet.
 */
ssize_t pmi_wire_reader_next(pmi_wire_reader_t *r, char *line, int *truncated_p);
/* bytes buffered that are not yet a whole line */
size_t pmi_wire_reader_pending(const pmi_wire_reader_t *r);

#endif
