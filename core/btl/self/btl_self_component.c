/*
 * btl_self_component.c -- the loopback component: parameters and open().
 */
#include "core/btl/self/btl_self.h"

static btl_module_t *btl_self_open(const btl_services_t *svc)
{
    if (svc->size < sizeof(btl_services_t)) {
        svc->log_error("btl self: services table too old (%zu bytes)", svc->size);
        return NULL;
    }
    long eager = btl_param_int(svc, "btl_self_eager_limit", 4096, 64, 1L << 30,
                               "largest message the PML sends eagerly to itself");
    long max_frag = btl_param_int(svc, "btl_self_max_frag", 64 * 1024, 64, 1L << 30,
                                  "largest loopback fragment");
    if (eager < 64 || max_frag < eager) {
        svc->log_error("btl self: need 64 <= eager_limit (%ld) <= max_frag (%ld)", eager, max_frag);
        return NULL;
    }
    if (btl_self_init(svc, (size_t)eager, (size_t)max_frag) != COMPI_OK)
        return NULL;
    return &btl_self_module;
}

__attribute__((visibility("default"))) const btl_component_t compi_btl_self_component = {
    .size = sizeof(btl_component_t),
    .abi_version = BTL_ABI_VERSION,
    .name = "self",
    .description = "loopback for messages a rank sends to itself",
    .open = btl_self_open,
};
