/*
 * op_loops_avx2.c -- the loops of op_kernels.h compiled for AVX2 (32-byte vectors),
 * chosen at MPI_Init by op_simd_select() on processors that have it.  Only this file is
 * compiled for AVX2, and only called after the processor said it runs it.
 */
#include "core/op/op_loops.h"

#if OP_HAVE_X86_SIMD

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC target("avx2")
#endif

#define OP_KERNEL_TABLE op_kernels_avx2
#include "core/op/op_kernels.h"

#if defined(__clang__)
#pragma clang attribute pop
#endif

#else
/* ISO C wants a declaration in every translation unit */
typedef int op_loops_avx2_unused_t;
#endif
