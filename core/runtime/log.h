/*
 * log.h -- messages to stderr, prefixed with the rank and host.
 *
 * Errors are logged once, where they are first known (UCX habit).  Verbose output is
 * controlled per framework by parameters (e.g. COMPI_MCA_pml_verbose=1).
 * Never call these on a hot path.
 */
#ifndef COMPI_LOG_H
#define COMPI_LOG_H

void compi_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void compi_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void compi_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* prints only when `level` <= the framework's verbosity */
void compi_log_verbose(int verbosity, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
