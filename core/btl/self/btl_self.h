/*
 * btl_self.h -- loopback BTL, internal to the module (btl_self_component.c, btl_self.c).
 *
 * Ownership: the module owns its fragment buffers (a small free list plus a FIFO of
 * committed fragments); btl_self_finalize() frees them.
 */
#ifndef COMPI_BTL_SELF_H
#define COMPI_BTL_SELF_H

#include "core/btl/btl.h"

extern btl_module_t btl_self_module;

compi_status_t btl_self_init(const btl_services_t *svc, size_t eager_limit, size_t max_frag);

#endif
