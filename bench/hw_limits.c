/* hw_limits.c -- what the machine allows, measured next to the MPI benchmarks
 * (run-osu-coll.sh): the floors that no MPI's small-message latency or large-message
 * collective can pass on it.
 *
 *   hw_limits [CPU_A CPU_B]     (default 0 and 1)
 *
 * prints CSV rows name,value,unit:
 *   handoff_ns       one cache line's hand-off from one core to the other, one way: two
 *                    threads pinned to CPU_A and CPU_B bounce a counter in one line
 *                    (half the round trip), the median of 9 trials of 200000 round trips
 *   handoff2_ns      the same through two lines, one per direction, as a shared-memory
 *                    transport's rings are: each write must first take its line back from
 *                    the core that polls it, so a message pays two transfers, not one
 *   handoff_work_ns  the one line again, each side doing WORK_NS of private work (a
 *   handoff2_work_ns chain of multiplications, about 60 ns here) between reading the
 *                    other's value and writing its own, as an MPI library does between
 *                    a receive and the reply: the waiting core polls the line back in the
 *                    meantime, and one line is no longer cheaper than two
 *   memcpy_1mib_us   memcpy of 1 MiB on one core, source and destination warm in its
 *                    caches (median of 9 trials of 200 copies)
 *   xcopy_1mib_us    memcpy of 1 MiB on CPU_A from a buffer CPU_B has just written: what a
 *                    shared-memory transfer of 1 MiB costs at least (median of 9 trials of
 *                    50 rounds: B writes, A copies)
 *
 * Plain C and POSIX threads; no MPI. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIALS 9
#define MIB (1u << 20)

static int cpu_a, cpu_b;
static _Alignas(64) _Atomic uint64_t line; /* the bounced cache line */
static _Alignas(64) _Atomic uint64_t turn; /* xcopy: whose step it is */
static unsigned char *src, *dst;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
        fprintf(stderr, "hw_limits: cannot pin a thread to CPU %d\n", cpu);
        exit(1);
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, TRIALS, sizeof *v, cmp);
    return v[TRIALS / 2];
}

/* the other side of the hand-off: answers each odd value with the next even one */
static void *bounce(void *arg)
{
    uint64_t rounds = *(uint64_t *)arg, v;
    pin(cpu_b);
    for (uint64_t i = 0; i < rounds; i++) {
        while (((v = atomic_load_explicit(&line, memory_order_acquire)) & 1) == 0)
            ;
        atomic_store_explicit(&line, v + 1, memory_order_release);
    }
    return NULL;
}

static double handoff_ns(void)
{
    double t[TRIALS];
    uint64_t rounds = 200000;
    for (int k = 0; k < TRIALS; k++) {
        pthread_t th;
        atomic_store(&line, 0);
        pthread_create(&th, NULL, bounce, &rounds);
        double t0 = now_ns();
        for (uint64_t i = 0; i < rounds; i++) {
            atomic_store_explicit(&line, 2 * i + 1, memory_order_release);
            while (atomic_load_explicit(&line, memory_order_acquire) != 2 * i + 2)
                ;
        }
        t[k] = (now_ns() - t0) / (2.0 * rounds);
        pthread_join(th, NULL);
    }
    return median(t);
}

/* a ping-pong through one line (both sides write it in turn) or two (each side writes its
   own, polls the other's); `work`: iterations of a dependent multiply-add chain between
   reading the peer's value and writing one's own */
static _Alignas(128) _Atomic uint64_t pp_line[2][16];
static int pp_two, pp_work;

static uint64_t busy(uint64_t x, int n)
{
    for (int i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

static void pp_side(int me, uint64_t rounds, uint64_t *sink)
{
    _Atomic uint64_t *mine = pp_line[pp_two ? me : 0], *theirs = pp_line[pp_two ? 1 - me : 0];
    uint64_t x = *sink;
    for (uint64_t i = 0; i < rounds; i++) {
        /* one line: side 0 writes 2i+1, side 1 answers 2i+2; two lines: both write i+1 */
        uint64_t ping = pp_two ? i + 1 : 2 * i + 1, pong = pp_two ? i + 1 : 2 * i + 2, v;
        if (me == 0)
            atomic_store_explicit(mine, ping, memory_order_release);
        while ((v = atomic_load_explicit(theirs, memory_order_acquire)) != (me == 0 ? pong : ping))
            ;
        x = busy(x + v, pp_work);
        if (me == 1)
            atomic_store_explicit(mine, pong, memory_order_release);
    }
    *sink = x;
}

static void *pp_peer(void *arg)
{
    uint64_t sink = 1;
    pin(cpu_b);
    pp_side(1, *(uint64_t *)arg, &sink);
    return (void *)(uintptr_t)(sink & 1);
}

static double pingpong_ns(int two, int work)
{
    double t[TRIALS];
    uint64_t rounds = 200000, sink = 1;
    pp_two = two;
    pp_work = work;
    for (int k = 0; k < TRIALS; k++) {
        pthread_t th;
        memset((void *)pp_line, 0, sizeof pp_line);
        pthread_create(&th, NULL, pp_peer, &rounds);
        double t0 = now_ns();
        pp_side(0, rounds, &sink);
        t[k] = (now_ns() - t0) / (2.0 * rounds);
        pthread_join(th, NULL);
    }
    if (sink == 0)
        printf("#\n"); /* keeps the chain */
    return median(t);
}

/* iterations of busy() that take about `ns` on this core */
static int work_for(double ns)
{
    uint64_t x = 1;
    int n = 1000000;
    double t0 = now_ns();
    x = busy(x, n);
    double per = (now_ns() - t0) / n;
    if (x == 0)
        printf("#\n");
    return per > 0 ? (int)(ns / per) + 1 : 1;
}

static double memcpy_us(void)
{
    double t[TRIALS];
    for (int k = 0; k < TRIALS; k++) {
        memcpy(dst, src, MIB);
        double t0 = now_ns();
        for (int i = 0; i < 200; i++) {
            memcpy(dst, src, MIB);
            __asm__ volatile("" ::: "memory");
        }
        t[k] = (now_ns() - t0) / 200 / 1e3;
    }
    return median(t);
}

/* CPU_B's side of xcopy: writes the source, hands it over, waits for the copy */
static void *writer(void *arg)
{
    int rounds = *(int *)arg;
    pin(cpu_b);
    for (int i = 0; i < rounds; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != (uint64_t)2 * i)
            ;
        memset(src, i & 0xff, MIB);
        atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
    }
    return NULL;
}

static double xcopy_us(void)
{
    double t[TRIALS];
    int rounds = 50;
    for (int k = 0; k < TRIALS; k++) {
        pthread_t th;
        double sum = 0;
        atomic_store(&turn, 0);
        pthread_create(&th, NULL, writer, &rounds);
        for (int i = 0; i < rounds; i++) {
            while (atomic_load_explicit(&turn, memory_order_acquire) != (uint64_t)2 * i + 1)
                ;
            double t0 = now_ns();
            memcpy(dst, src, MIB);
            __asm__ volatile("" ::: "memory");
            sum += now_ns() - t0;
            atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
        }
        pthread_join(th, NULL);
        t[k] = sum / rounds / 1e3;
    }
    return median(t);
}

int main(int argc, char **argv)
{
    cpu_a = argc > 2 ? atoi(argv[1]) : 0;
    cpu_b = argc > 2 ? atoi(argv[2]) : 1;
    if (posix_memalign((void **)&src, 4096, MIB) || posix_memalign((void **)&dst, 4096, MIB)) {
        fprintf(stderr, "hw_limits: out of memory\n");
        return 1;
    }
    memset(src, 1, MIB);
    memset(dst, 2, MIB);
    pin(cpu_a);
    printf("name,value,unit\n");
    printf("handoff_ns,%.1f,ns\n", handoff_ns());
    printf("handoff2_ns,%.1f,ns\n", pingpong_ns(1, 0));
    int work = work_for(60);
    printf("handoff_work_ns,%.1f,ns\n", pingpong_ns(0, work));
    printf("handoff2_work_ns,%.1f,ns\n", pingpong_ns(1, work));
    printf("memcpy_1mib_us,%.2f,us\n", memcpy_us());
    printf("xcopy_1mib_us,%.2f,us\n", xcopy_us());
    free(src);
    free(dst);
    return 0;
}
