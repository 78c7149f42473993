/*
 * pmi_pmix_detect.c -- was this process started by a PMIx launcher?
 *
 * Kept apart from pmi_pmix.c so that a build without PMIx can still tell a user that it
 * was started by a launcher it cannot speak to, instead of running as N singletons.
 */
#include "core/runtime/pmi_pmix.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

int pmi_pmix_detected(void)
{
    const char *ns = getenv("PMIX_NAMESPACE");

    if (ns != NULL && *ns != '\0' && getenv("PMIX_RANK") != NULL)
        return 1;
    /* PMIX_SERVER_URI, PMIX_SERVER_URI2, ..._URI21, ..._URI41: one per protocol version */
    for (char **e = environ; e != NULL && *e != NULL; e++)
        if (strncmp(*e, "PMIX_SERVER_URI", 15) == 0)
            return 1;
    return 0;
}
