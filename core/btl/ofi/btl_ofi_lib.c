/*
 * btl_ofi_lib.c -- libfabric, loaded with dlopen only when the BTL is going to run.
 *
 * Why not link it: Debian's libfabric pulls in libpsm_infinipath, whose constructor sleeps
 * about 200 ms at load time, so every program linked with it (libmpi built with
 * --disable-dlopen) or every single-host job loading btl_ofi would pay that for a
 * transport it does not use.  libfabric's API is almost all static inline wrappers that
 * call through the objects' ops tables; only the few functions below are real symbols.
 *
 * The library is never unloaded: providers may leave threads or atexit handlers behind.
 */
#include "core/btl/ofi/btl_ofi.h"

#include <dlfcn.h>
#include <stdio.h>

btl_ofi_lib_t btl_ofi_lib;

static int resolve(void *h, const char *name, void **fn_p, const btl_services_t *svc,
                   const char *path)
{
    *fn_p = dlsym(h, name);
    if (*fn_p == NULL) {
        svc->log_error("btl ofi: %s has no %s: %s", path, name, dlerror());
        return -1;
    }
    return 0;
}

compi_status_t btl_ofi_lib_load(const btl_services_t *svc)
{
    /* the one configure found first, then whatever the loader finds by its soname */
    static const char *const paths[] = {
#ifdef BTL_OFI_LIBDIR
        BTL_OFI_LIBDIR "/libfabric.so.1",
#endif
        "libfabric.so.1",
    };
    btl_ofi_lib_t *l = &btl_ofi_lib;
    const char *path = NULL, *why = "";
    void *h = NULL;

    if (l->loaded)
        return COMPI_OK;
    for (size_t i = 0; i < COMPI_ARRAY_SIZE(paths) && h == NULL; i++) {
        path = paths[i];
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL)
            why = dlerror();
    }
    if (h == NULL) {
        svc->log_error("btl ofi: cannot load libfabric (%s): install it (Debian: libfabric1) "
                       "or leave ofi out of the btl list",
                       why);
        return COMPI_ERR_NOT_FOUND;
    }
    if (resolve(h, "fi_getinfo", (void **)&l->getinfo, svc, path) != 0 ||
        resolve(h, "fi_freeinfo", (void **)&l->freeinfo, svc, path) != 0 ||
        resolve(h, "fi_dupinfo", (void **)&l->dupinfo, svc, path) != 0 ||
        resolve(h, "fi_fabric", (void **)&l->fabric, svc, path) != 0 ||
        resolve(h, "fi_strerror", (void **)&l->strerror, svc, path) != 0) {
        dlclose(h);
        return COMPI_ERR_NOT_FOUND;
    }
    l->loaded = 1;
    return COMPI_OK;
}
