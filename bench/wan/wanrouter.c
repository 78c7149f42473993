/*
 * wanrouter: the wide-area link of the multi-cluster testbed (bench/wan/testbed.sh).
 *
 * The testbed's router namespace routes every packet that goes from one cluster to
 * another into a TUN device.  This program reads each packet from the device, holds it
 * for the one-way delay D, and writes it back into the same device; the kernel then
 * forwards it to the destination cluster's bridge.  Each packet crosses once, so the
 * one-way delay between clusters is D and a round trip 2 D.  Traffic inside a cluster
 * never reaches us.
 *
 *    host c1h2 ──► br1 ──► (rule: iif br1 → table 100) ──► tun0 ─┐
 *                                                                │ read
 *                                                   [ FIFO: due = t_read + D ]
 *                                                                │ write when due
 *    host c2h1 ◄── br2 ◄── (main table: 10.2.0.0/24 dev br2) ◄── tun0
 *
 * Timing.  One thread, ppoll() with a nanosecond timeout until the head packet is due,
 * and a timer slack of 1 ns (prctl PR_SET_TIMERSLACK): poll()'s millisecond resolution
 * would round 250 us up to 1 ms, and the default 50 us slack would add up to 50 us.  The
 * delay is the same for every packet, so the queue in arrival order is also the queue in
 * due order: a ring buffer.  What remains is the wake-up latency of the machine (some
 * microseconds when idle, more when every core is busy with ranks that spin): --rt runs
 * us SCHED_FIFO so a spinning rank cannot hold us off the core, and --spin busy-waits
 * the last few microseconds before a packet is due.  The statistics say how late packets
 * left ("late"): that is the error of the emulation.
 *
 * The queue holds at most --queue packets; a packet that arrives when it is full is
 * dropped and counted (like a router's tail drop; TCP recovers).  Statistics go to
 * stderr (the log file when daemonized) on SIGUSR1 and at exit.  SIGTERM and SIGINT end
 * the program cleanly: statistics, pid file removed, exit 0.
 *
 * Limits: no bandwidth cap here (testbed.sh puts an htb qdisc on the bridges for that),
 * no loss or jitter, and one delay for every pair of clusters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define READ_BATCH 64 /* packets read per wake-up before the queue is looked at again */

struct options {
    const char *dev;
    int64_t delay_ns;
    int64_t spin_ns;
    long queue;
    int rt_prio;
    int daemon;
    const char *pidfile;
    const char *logfile;
};

struct stats {
    uint64_t in, out, dropped, write_errors, truncated;
    uint64_t bytes_out;
    long max_depth;
    int64_t late_sum_ns, late_max_ns;
    uint64_t late_over_50us;
};

/* the FIFO: slot i holds a packet of len[i] bytes in data + i * slot_size */
struct fifo {
    unsigned char *data;
    int64_t *due;
    uint32_t *len;
    size_t slot_size;
    long cap, head, count;
};

static volatile sig_atomic_t got_term, got_usr1;

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        got_usr1 = 1;
    else
        got_term = 1;
}

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: wanrouter --dev TUN --delay USEC [options]\n"
               "  Holds every packet read from the TUN device for the delay, then writes it\n"
               "  back (the emulated wide-area link of bench/wan/testbed.sh).\n"
               "  --dev NAME      TUN device (made by 'ip tuntap add NAME mode tun', or made\n"
               "                  here and gone when we exit); default tun0\n"
               "  --delay USEC    one-way delay in microseconds (fractions allowed; 0 to 10 s)\n"
               "  --queue N       packets held at most; more are dropped and counted (4096)\n"
               "  --spin USEC     busy-wait the last USEC before a packet is due (0)\n"
               "  --rt PRIO       run SCHED_FIFO at PRIO (1-99); a warning if not allowed\n"
               "  --daemon        detach once the device is open (needs --pidfile)\n"
               "  --pidfile FILE  write our pid there; removed at exit\n"
               "  --log FILE      with --daemon: stderr (statistics) goes there (/dev/null)\n"
               "  Signals: SIGUSR1 prints statistics, SIGTERM/SIGINT end the program.\n");
}

/* parses a non-negative number of microseconds into nanoseconds; -1 when invalid */
static int64_t parse_usec(const char *s, double max_usec)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= 0) || v > max_usec)
        return -1;
    return (int64_t)(v * 1000.0 + 0.5);
}

static long parse_long(const char *s, long lo, long hi)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    return v;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"dev", required_argument, NULL, 'd'},     {"delay", required_argument, NULL, 'D'},
        {"queue", required_argument, NULL, 'q'},   {"spin", required_argument, NULL, 's'},
        {"rt", required_argument, NULL, 'r'},      {"daemon", no_argument, NULL, 'b'},
        {"pidfile", required_argument, NULL, 'p'}, {"log", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
    int c, have_delay = 0;

    *o = (struct options){.dev = "tun0", .queue = 4096, .logfile = "/dev/null"};
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (strlen(optarg) == 0 || strlen(optarg) >= IFNAMSIZ) {
                fprintf(stderr, "wanrouter: --dev '%s': a name of 1 to %d characters\n", optarg,
                        IFNAMSIZ - 1);
                return -1;
            }
            o->dev = optarg;
            break;
        case 'D':
            o->delay_ns = parse_usec(optarg, 10e6);
            if (o->delay_ns < 0) {
                fprintf(stderr, "wanrouter: --delay '%s': microseconds from 0 to 10000000\n",
                        optarg);
                return -1;
            }
            have_delay = 1;
            break;
        case 'q':
            o->queue = parse_long(optarg, 1, 1 << 20);
            if (o->queue < 0) {
                fprintf(stderr, "wanrouter: --queue '%s': a count from 1 to %d\n", optarg, 1 << 20);
                return -1;
            }
            break;
        case 's':
            o->spin_ns = parse_usec(optarg, 1e6);
            if (o->spin_ns < 0) {
                fprintf(stderr, "wanrouter: --spin '%s': microseconds from 0 to 1000000\n", optarg);
                return -1;
            }
            break;
        case 'r':
            o->rt_prio = (int)parse_long(optarg, 1, 99);
            if (o->rt_prio < 0) {
                fprintf(stderr, "wanrouter: --rt '%s': a priority from 1 to 99\n", optarg);
                return -1;
            }
            break;
        case 'b':
            o->daemon = 1;
            break;
        case 'p':
            o->pidfile = optarg;
            break;
        case 'l':
            o->logfile = optarg;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "wanrouter: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (!have_delay) {
        fprintf(stderr, "wanrouter: --delay USEC is required\n");
        return -1;
    }
    if (o->daemon && !o->pidfile) {
        fprintf(stderr, "wanrouter: --daemon needs --pidfile (how else would you stop it?)\n");
        return -1;
    }
    return 0;
}

/* attaches to (or creates) the TUN device; its MTU in *mtu_p */
static int open_tun(const char *dev, int *mtu_p)
{
    struct ifreq ifr;
    int fd, sock;

    fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "wanrouter: /dev/net/tun: %s\n", strerror(errno));
        return -1;
    }
    memset(&ifr, 0, sizeof(ifr));
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        fprintf(stderr,
                "wanrouter: cannot attach to TUN device %s: %s (a device of that name that "
                "is not a TUN without packet info, or no permission?)\n",
                dev, strerror(errno));
        goto err;
    }
    *mtu_p = 1500;
    sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock >= 0) {
        if (ioctl(sock, SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu > 0)
            *mtu_p = ifr.ifr_mtu;
        close(sock);
    }
    return fd;
err:
    close(fd);
    return -1;
}

static int fifo_init(struct fifo *q, long cap, int mtu)
{
    /* a read into a buffer of exactly the MTU cannot tell a whole packet from a cut one */
    q->slot_size = (size_t)(mtu < 1500 ? 1500 : mtu) + 256;
    q->cap = cap;
    q->head = q->count = 0;
    q->data = malloc(q->slot_size * (size_t)cap);
    q->due = malloc(sizeof(*q->due) * (size_t)cap);
    q->len = malloc(sizeof(*q->len) * (size_t)cap);
    if (!q->data || !q->due || !q->len) {
        fprintf(stderr, "wanrouter: out of memory for a queue of %ld packets of %zu B\n", cap,
                q->slot_size);
        return -1;
    }
    return 0;
}

static void print_stats(const struct stats *st, const struct fifo *q, const char *why)
{
    double late_avg = st->out ? (double)st->late_sum_ns / (double)st->out / 1e3 : 0.0;

    fprintf(stderr,
            "wanrouter stats (%s): in %llu out %llu bytes_out %llu dropped %llu "
            "write_errors %llu truncated %llu queued %ld max_queued %ld late_avg_us %.1f "
            "late_max_us %.1f late_over_50us %llu\n",
            why, (unsigned long long)st->in, (unsigned long long)st->out,
            (unsigned long long)st->bytes_out, (unsigned long long)st->dropped,
            (unsigned long long)st->write_errors, (unsigned long long)st->truncated, q->count,
            st->max_depth, late_avg, (double)st->late_max_ns / 1e3,
            (unsigned long long)st->late_over_50us);
    fflush(stderr);
}

/* reads up to READ_BATCH packets; every one is queued or, with the queue full, dropped */
static void read_packets(int fd, struct fifo *q, struct stats *st, int64_t delay_ns)
{
    static unsigned char scratch[65536];

    for (int n = 0; n < READ_BATCH; n++) {
        long tail = (q->head + q->count) % q->cap;
        int full = q->count == q->cap;
        unsigned char *buf = full ? scratch : q->data + (size_t)tail * q->slot_size;
        size_t size = full ? sizeof(scratch) : q->slot_size;
        ssize_t r = read(fd, buf, size);

        if (r < 0) {
            if (errno != EAGAIN && errno != EINTR)
                fprintf(stderr, "wanrouter: read: %s\n", strerror(errno));
            return;
        }
        if (r == 0)
            return;
        st->in++;
        if (full) {
            st->dropped++;
            continue;
        }
        if ((size_t)r == size) {
            st->truncated++;
            continue;
        }
        q->due[tail] = now_ns() + delay_ns;
        q->len[tail] = (uint32_t)r;
        q->count++;
        if (q->count > st->max_depth)
            st->max_depth = q->count;
    }
}

/* writes every packet that is due at `now` */
static void send_due(int fd, struct fifo *q, struct stats *st, int64_t now)
{
    while (q->count > 0 && q->due[q->head] <= now) {
        const unsigned char *p = q->data + (size_t)q->head * q->slot_size;
        int64_t late = now - q->due[q->head];

        if (write(fd, p, q->len[q->head]) < 0) {
            st->write_errors++;
        } else {
            st->out++;
            st->bytes_out += q->len[q->head];
            st->late_sum_ns += late;
            if (late > st->late_max_ns)
                st->late_max_ns = late;
            if (late > 50000)
                st->late_over_50us++;
        }
        q->head = (q->head + 1) % q->cap;
        q->count--;
        now = now_ns();
    }
}

static int write_pidfile(const char *path)
{
    FILE *f = fopen(path, "w");

    if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0) {
        fprintf(stderr, "wanrouter: cannot write pid file %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* forks; the parent exits once the child is set up (0) or reports that it failed */
static int daemonize(const struct options *o)
{
    int p[2], fd;
    pid_t pid;
    char ok = 0;

    if (pipe(p) < 0)
        return -1;
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "wanrouter: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid > 0) {
        close(p[1]);
        if (read(p[0], &ok, 1) != 1 || ok != 1) {
            fprintf(stderr, "wanrouter: the daemon failed to start (see %s)\n", o->logfile);
            _exit(1);
        }
        _exit(0);
    }
    close(p[0]);
    setsid();
    if (chdir("/") < 0)
        return -1;
    fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
        dup2(fd, 0);
        close(fd);
    }
    fd = open(o->logfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) {
        fprintf(stderr, "wanrouter: cannot open log %s: %s\n", o->logfile, strerror(errno));
        return -1;
    }
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    if (write_pidfile(o->pidfile) < 0)
        return -1;
    ok = 1;
    if (write(p[1], &ok, 1) != 1)
        return -1;
    close(p[1]);
    return 0;
}

static void set_realtime(int prio)
{
    struct sched_param sp = {.sched_priority = prio};

    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
        fprintf(stderr,
                "wanrouter: warning: SCHED_FIFO %d not allowed (%s); delays will be "
                "less precise when the cores are busy\n",
                prio, strerror(errno));
}

int main(int argc, char **argv)
{
    struct options o;
    struct fifo q = {0};
    struct stats st = {0};
    struct sigaction sa;
    sigset_t block, waitmask;
    int fd, mtu, rc = 1;

    if (parse_options(argc, argv, &o) < 0)
        return 2;
    fd = open_tun(o.dev, &mtu);
    if (fd < 0)
        return 1;
    if (fifo_init(&q, o.queue, mtu) < 0)
        goto out;
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    if (o.rt_prio > 0)
        set_realtime(o.rt_prio);

    /* the signals are blocked except inside ppoll, so a flag cannot be missed */
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, &waitmask);
    sigdelset(&waitmask, SIGTERM);
    sigdelset(&waitmask, SIGINT);
    sigdelset(&waitmask, SIGUSR1);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);

    if (o.daemon) {
        if (daemonize(&o) < 0)
            _exit(1);
    } else if (o.pidfile && write_pidfile(o.pidfile) < 0) {
        goto out;
    }
    fprintf(stderr, "wanrouter: %s, delay %.3f us, queue %ld packets of up to %zu B, ready\n",
            o.dev, (double)o.delay_ns / 1e3, o.queue, q.slot_size - 256);
    fflush(stderr);

    while (!got_term) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        struct timespec ts, *tsp = NULL;
        int64_t now = now_ns();

        if (got_usr1) {
            got_usr1 = 0;
            print_stats(&st, &q, "SIGUSR1");
        }
        send_due(fd, &q, &st, now);
        if (q.count > 0) {
            int64_t wait = q.due[q.head] - now_ns();

            if (wait <= o.spin_ns) {
                /* busy-wait for the head, reading what arrives meanwhile */
                while (now_ns() < q.due[q.head])
                    read_packets(fd, &q, &st, o.delay_ns);
                continue;
            }
            wait -= o.spin_ns;
            ts.tv_sec = wait / 1000000000;
            ts.tv_nsec = wait % 1000000000;
            tsp = &ts;
        }
        if (ppoll(&pfd, 1, tsp, &waitmask) < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "wanrouter: ppoll: %s\n", strerror(errno));
            goto out;
        }
        if (pfd.revents & POLLIN)
            read_packets(fd, &q, &st, o.delay_ns);
        if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
            fprintf(stderr, "wanrouter: the TUN device %s went away\n", o.dev);
            goto out;
        }
    }
    rc = 0;
out:
    print_stats(&st, &q, rc == 0 ? "exit" : "error exit");
    if (o.pidfile)
        unlink(o.pidfile);
    close(fd);
    free(q.data);
    free(q.due);
    free(q.len);
    return rc;
}
