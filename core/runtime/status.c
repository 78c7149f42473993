/*
 * status.c -- names of internal status codes, for log messages.
 */
#include "core/include/compi_status.h"

const char *compi_status_string(compi_status_t st)
{
    switch (st) {
    case COMPI_OK: return "success";
    case COMPI_INPROGRESS: return "in progress";
    case COMPI_ERR_NO_MEMORY: return "out of memory";
    case COMPI_ERR_NO_RESOURCE: return "out of resources";
    case COMPI_ERR_AGAIN: return "try again";
    case COMPI_ERR_INVALID_PARAM: return "invalid parameter";
    case COMPI_ERR_TRUNCATE: return "message truncated";
    case COMPI_ERR_NOT_FOUND: return "not found";
    case COMPI_ERR_UNSUPPORTED: return "not supported";
    case COMPI_ERR_ROOT: return "invalid root";
    case COMPI_ERR_IO: return "input/output error";
    case COMPI_ERR_UNREACHABLE: return "peer unreachable";
    case COMPI_ERR_PMI: return "process manager (PMI) error";
    case COMPI_ERR_CONFIG: return "configuration error";
    case COMPI_ERR_INTERNAL: return "internal error";
    default: return "unknown status";
    }
}
