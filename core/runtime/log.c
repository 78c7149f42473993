/*
 * log.c -- messages to stderr with a "compi: rank R (host): " prefix ("compi: rank R: "
 * before the host is known).
 *
 * One write(2) per message so lines of different ranks do not interleave mid-line.
 */
#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void log_v(const char *level, const char *fmt, va_list ap)
{
    char buf[2048];
    int n;

    if (rte_proc.world_size > 0 && rte_proc.hostname[0] != '\0') {
        n = snprintf(buf, sizeof(buf), "compi: rank %d (%s): %s", rte_proc.world_rank,
                     rte_proc.hostname, level);
    } else if (rte_proc.world_size > 0) { /* before the host is known */
        n = snprintf(buf, sizeof(buf), "compi: rank %d: %s", rte_proc.world_rank, level);
    } else {
        n = snprintf(buf, sizeof(buf), "compi: %s", level);
    }
    if (n < 0 || (size_t)n >= sizeof(buf)) {
        n = 0;
    }
    int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
    if (m < 0) {
        m = 0;
    }
    size_t len = strnlen(buf, sizeof(buf) - 2);
    if (len == 0 || buf[len - 1] != '\n') {
        buf[len++] = '\n';
    }
    ssize_t ignored = write(STDERR_FILENO, buf, len);
    (void)ignored;
}

void compi_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_v("", fmt, ap);
    va_end(ap);
}

void compi_log_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_v("warning: ", fmt, ap);
    va_end(ap);
}

void compi_log_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_v("", fmt, ap);
    va_end(ap);
}

void compi_log_verbose(int verbosity, int level, const char *fmt, ...)
{
    if (level > verbosity) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    log_v("", fmt, ap);
    va_end(ap);
}
