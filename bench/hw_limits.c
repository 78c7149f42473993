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
    printf("memcpy_1mib_us,%.2f,us\n", memcpy_us());
    printf("xcopy_1mib_us,%.2f,us\n", xcopy_us());
    free(src);
    free(dst);
    return 0;
}
