/*
 * compi_common.h -- small helpers every layer may use.
 */
#ifndef COMPI_COMMON_H
#define COMPI_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define compi_likely(x) __builtin_expect(!!(x), 1)
#define compi_unlikely(x) __builtin_expect(!!(x), 0)

#define COMPI_CACHELINE 64

#define compi_container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#define COMPI_ALIGN_UP(x, a) ((((x) + (a)-1) / (a)) * (a))

#define COMPI_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)

#define COMPI_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
