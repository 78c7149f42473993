/*
 * alloc_count.c -- an allocation counter for the tests, loaded with LD_PRELOAD
 * (tests/mpi/.libs/alloc_count.so; tests/mpi/coll_alloc.sh preloads it).
 *
 * It interposes every allocation entry point of the C library (malloc, calloc, realloc,
 * reallocarray, free, posix_memalign, aligned_alloc, memalign, valloc, pvalloc) for the
 * whole process: glibc's own functions (strdup, fopen, qsort, ...) allocate through the
 * same symbols, so they are seen too.  Each call is forwarded to the next definition
 * (dlsym(RTLD_NEXT)); while dlsym itself runs, the few calls it makes are served from a
 * static arena, whose blocks are never handed to the real free.
 *
 * A program declares the two functions below weak and calls them when they resolve:
 *
 *   compi_alloc_count_start()  counting on, counters reset (all threads count)
 *   compi_alloc_count_stop(&frees)  counting off; returns the allocations counted
 *                                   (frees in *frees when not NULL)
 *
 * COMPI_ALLOC_COUNT_BACKTRACE=1 prints the stack (backtrace_symbols_fd, to stderr) of
 * every allocation counted, to find where one comes from.  Allocations made while that
 * printing runs are neither counted nor printed (a per-thread guard).
 *
 * Ownership: nothing here owns memory but the bootstrap arena (static, never freed).
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);
static void *(*real_pvalloc)(size_t);

static int counting;      /* atomic: counting on */
static long n_allocs;     /* atomic */
static long n_frees;      /* atomic */
static int print_stacks;  /* COMPI_ALLOC_COUNT_BACKTRACE */
static int resolving;     /* dlsym is running: serve from the arena */
static __thread int busy __attribute__((tls_model("initial-exec"))); /* printing a stack */

/* ---- bootstrap arena: dlsym may call calloc before the real one is known ---------- */

static _Alignas(64) unsigned char arena[16384];
static size_t arena_used;

static void *arena_alloc(size_t n)
{
    size_t off = __atomic_fetch_add(&arena_used, (n + 63) & ~(size_t)63, __ATOMIC_RELAXED);
    if (off + n > sizeof(arena)) {
        return NULL;
    }
    return arena + off;
}

static int in_arena(const void *p)
{
    return (const unsigned char *)p >= arena && (const unsigned char *)p < arena + sizeof(arena);
}

static void resolve(void)
{
    if (real_malloc != NULL) {
        return;
    }
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_free = dlsym(RTLD_NEXT, "free");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = dlsym(RTLD_NEXT, "memalign");
    real_valloc = dlsym(RTLD_NEXT, "valloc");
    real_pvalloc = dlsym(RTLD_NEXT, "pvalloc");
    void *m = dlsym(RTLD_NEXT, "malloc");
    const char *bt = getenv("COMPI_ALLOC_COUNT_BACKTRACE");
    print_stacks = bt != NULL && *bt != '\0' && *bt != '0';
    resolving = 0;
    __atomic_store_n(&real_malloc, (void *(*)(size_t))m, __ATOMIC_RELEASE);
}

static void counted(long *counter)
{
    if (!__atomic_load_n(&counting, __ATOMIC_RELAXED) || busy) {
        return;
    }
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    if (print_stacks && counter == &n_allocs) {
        void *frames[32];
        busy = 1;
        static const char head[] = "alloc_count: allocation at\n";
        if (write(2, head, sizeof(head) - 1) < 0) {
            /* nothing to do about it */
        }
        int n = backtrace(frames, 32);
        backtrace_symbols_fd(frames, n, 2);
        busy = 0;
    }
}

EXPORT void compi_alloc_count_start(void)
{
    resolve();
    if (print_stacks) {
        /* backtrace() loads libgcc_s on first use, which allocates: do it now */
        void *f[2];
        busy = 1;
        backtrace(f, 2);
        busy = 0;
    }
    __atomic_store_n(&n_allocs, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&n_frees, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
}

EXPORT long compi_alloc_count_stop(long *frees)
{
    __atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
    if (frees != NULL) {
        *frees = __atomic_load_n(&n_frees, __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&n_allocs, __ATOMIC_RELAXED);
}

/* ---- the interposed entry points ---------------------------------------------------- */

EXPORT void *malloc(size_t n)
{
    if (resolving) {
        return arena_alloc(n);
    }
    resolve();
    counted(&n_allocs);
    return real_malloc(n);
}

EXPORT void *calloc(size_t n, size_t size)
{
    if (resolving) {
        /* dlsym's own calloc: the arena is static, so already zero */
        size_t total;
        if (__builtin_mul_overflow(n, size, &total)) {
            return NULL;
        }
        return arena_alloc(total);
    }
    resolve();
    counted(&n_allocs);
    return real_calloc(n, size);
}

EXPORT void *realloc(void *p, size_t n)
{
    if (resolving) {
        void *q = arena_alloc(n);
        if (q != NULL && p != NULL) {
            /* an arena block: its size is unknown, but never more than what is left */
            size_t room = (size_t)(arena + sizeof(arena) - (unsigned char *)p);
            memcpy(q, p, n < room ? n : room);
        }
        return q;
    }
    resolve();
    if (in_arena(p)) {
        void *q = real_malloc(n);
        if (q != NULL) {
            size_t room = (size_t)(arena + sizeof(arena) - (unsigned char *)p);
            memcpy(q, p, n < room ? n : room);
        }
        counted(&n_allocs);
        return q;
    }
    counted(&n_allocs);
    return real_realloc(p, n);
}

EXPORT void *reallocarray(void *p, size_t n, size_t size)
{
    size_t total;
    if (__builtin_mul_overflow(n, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, total);
}

EXPORT void free(void *p)
{
    if (p == NULL || in_arena(p)) {
        return;
    }
    resolve();
    counted(&n_frees);
    real_free(p);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
    resolve();
    counted(&n_allocs);
    return real_posix_memalign(out, align, n);
}

EXPORT void *aligned_alloc(size_t align, size_t n)
{
    resolve();
    counted(&n_allocs);
    return real_aligned_alloc(align, n);
}

EXPORT void *memalign(size_t align, size_t n)
{
    resolve();
    counted(&n_allocs);
    return real_memalign(align, n);
}

EXPORT void *valloc(size_t n)
{
    resolve();
    counted(&n_allocs);
    return real_valloc(n);
}

EXPORT void *pvalloc(size_t n)
{
    resolve();
    counted(&n_allocs);
    return real_pvalloc(n);
}
