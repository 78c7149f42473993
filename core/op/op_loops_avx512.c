/*
 * op_loops_avx512.c -- the loops of op_kernels.h compiled for AVX-512 (F, BW for bytes
 * and shorts, DQ for 64-bit products, VL), chosen at MPI_Init by op_simd_select() on
 * processors that have all four.  GCC's generic tuning would keep to 32-byte vectors;
 * prefer-vector-width=256 asks for whole 64-byte ones, which the processors that run
 * AVX-512 at all execute at least as fast as two 32-byte ones.
 */
#include "core/op/op_loops.h"

#if OP_HAVE_X86_SIMD

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))), \
                             apply_to = function)
#else
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,prefer-vector-width=256")
#endif

#define OP_KERNEL_TABLE op_kernels_avx512
#include "core/op/op_kernels.h"

#if defined(__clang__)
#pragma clang attribute pop
#endif

#else
/* ISO C wants a declaration in every translation unit */
typedef int op_loops_avx512_unused_t;
#endif
