/*
 * params.h -- run-time parameters (Open MPI's "MCA parameters").
 *
 * A parameter has a name ("btl_sm_eager_limit"), a default, and a help text.  Its value
 * comes from the environment variable COMPI_MCA_<name> (mpirun --mca NAME VALUE sets it),
 * else the default.  Every parameter registered is listed by compi_info.
 * Registration returns the value; read parameters once at init, never on a hot path.
 */
#ifndef COMPI_PARAMS_H
#define COMPI_PARAMS_H

#include <stddef.h>

long param_register_int(const char *name, long defval, const char *help);
/* a value outside lo..hi is warned about, naming the range, and the default is returned */
long param_register_int_range(const char *name, long defval, long lo, long hi, const char *help);
const char *param_register_string(const char *name, const char *defval, const char *help);

/* for compi_info: iterate over what was registered */
typedef struct param_desc {
    const char *name;
    const char *defval; /* as text */
    const char *value;  /* current value as text */
    const char *help;
} param_desc_t;
size_t param_count(void);
const param_desc_t *param_get(size_t i);

/* One warning per COMPI_MCA_<name> variable of the environment whose name is no
 * parameter of the library (neither registered so far nor among those it registers
 * elsewhere), naming the closest one when it looks like a typo:
 *   unknown parameter coll_verbos (COMPI_MCA_coll_verbos); did you mean coll_verbose?
 * Returns how many were unknown.  MPI_Init calls it on rank 0, once per job. */
int param_warn_unknown(void);
/* Levenshtein distance (SIZE_MAX when b is longer than 64 characters) */
size_t param_edit_distance(const char *a, const char *b);

#endif
