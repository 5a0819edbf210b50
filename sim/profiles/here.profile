# lockbench machine profile (docs/sim.md): written by lbcalibrate --trials 500, 2026-12-07 05:08 UTC on vm
# AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272; /proc/loadavg at the start: 1.14 1.70 1.94 1/105 15848
# a source on every constant; what could not be measured here is said, not invented
name = here

# topology and clock
topology.sockets = 1  # measured: hwloc packages; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.cores_per_socket = 2  # measured: hwloc cores / packages; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.threads_per_core = 1  # measured: hwloc PUs / cores; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
clock.tsc_ghz = 2.0960  # measured: TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c); median of 5 trials (p10 2.10, p90 2.10 GHz); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# coherence, in TSC cycles
# lat.smt: not measurable here: hwloc shows no usable SMT sibling of the first usable CPU
lat.socket = 305.5  # measured: two thirds of half a round trip (median 458.3) of a store-then-poll ping-pong of one line, CPUs 0 and 1 (hwloc: two cores of one package), 200 round trips a trial: the simulator's hand-over takes 1.5; median of 500 trials (p10 299, p90 368 cycles); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
# lat.remote: not measurable here: hwloc shows no usable CPU in another package than the first usable CPU's
lat.hit = 2.29  # measured: a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial; median of 500 trials (p10 2.29, p90 2.30 cycles); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.mem = 252.0  # measured: one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off; median of 500 trials (p10 210, p90 336 cycles); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.atomic_extra = 9.16  # measured: back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, less lat.hit; the spread is the RMW's own; median of 500 trials (p10 11.41, p90 11.52 cycles); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.pause = 37.92  # measured: back-to-back pause (cpu_relax), 2000 a trial; median of 500 trials (p10 37.76, p90 38.47 cycles); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# the kernel's costs, ns
kernel.syscall_ns = 991.9  # measured: syscall(SYS_getppid), each call timed alone (the TSC pair's cost taken off), a trial the median of 101; median of 500 trials (p10 982, p90 1042 ns); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wake_ns = 80.2  # measured: FUTEX_WAKE_PRIVATE with no waiter, timed as getppid in turn with it, less the trial's getppid (entry and exit); median of 500 trials (p10 70.13, p90 80.15 ns); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wait_ns = 90.2  # measured: FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), timed as getppid in turn with it, less the trial's getppid (entry and exit); median of 500 trials (p10 70.13, p90 100 ns); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.wake_latency_ns = 39535  # measured: TSC before FUTEX_WAKE_PRIVATE on CPU 0 to TSC after the woken thread's FUTEX_WAIT returned on CPU 1, idle 200 us before (their TSCs agree within 230 ns); median of 500 trials (p10 37892, p90 44184 ns); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.context_switch_ns = 2690  # measured: two threads on one CPU passing a turn through a futex, 20 passes a trial: one switch, one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass; median of 500 trials (p10 2568, p90 3036 ns); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# schedulers: the first is used unless the run asks for the other
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)
sched.eevdf-6.x.hz = 250  # measured: CONFIG_HZ in /proc/config.gz; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, "sched: Reduce the default slice to avoid tasks getting an extra tick"); EEVDF's base slice, in min_granularity's place
sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)
sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): cpus = min_t(unsigned int, num_online_cpus(), 8)
# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)

# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points
workload.creat.hold = 0%:1994 1%:2044 5%:2064 10%:2074 25%:2114 50%:2324 75%:2545 90%:3166 95%:4659 99%:12854 99.9%:25779 100%:196191  # measured: creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in /dev/shm (tmpfs on tmpfs), one thread, no lock (create median 2535, unlink median 2114): each from TSC before to TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before it and the work after it counted in: workload.creat.outside_ns), 20000 calls (of 20240 timed: 240 in batches of 16 during which the thread was switched out dropped); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.gap = 0%:40.1 1%:40.1 5%:40.1 10%:40.1 25%:50.1 50%:1272 75%:1323 90%:1363 95%:1393 99%:1573 99.9%:22332 100%:187525  # measured: from one of those calls' return to the next one's start (close() after the create; the loop), 18750 gaps; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.outside_ns = 1533  # measured: open() O_RDONLY of a file that is there, in the same directory: the call's entry and exit, the walk to a cached dentry and the open, none of it under the directory's i_rwsem; an estimate of the part of a creating call outside the lock; median of 500 trials (p10 1513, p90 1583 ns); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.hold = 0%:1132 1%:1182 5%:1813 10%:1843 25%:1894 50%:1964 75%:2044 90%:2575 95%:3567 99%:13365 99.9%:26921 100%:70233  # measured: fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in /dev/shm (tmpfs), lseek() back at its end, one thread, no lock: each from TSC before to TSC after; a shared file's f_pos_lock is held inside for less (one thread alone does not take it), 10006 calls (of 10072 timed: 66 in batches of 16 during which the thread was switched out dropped); 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.gap = 0%:40.1 1%:50.1 5%:50.1 10%:50.1 25%:50.1 50%:50.1 75%:60.1 90%:60.1 95%:60.1 99%:80.2 99.9%:9809 100%:48692  # measured: from one of those calls' return to the next one's start (the block's first and last words read; the loop), 9390 gaps; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.hold = 0%:0.301 1%:0.301 5%:0.301 10%:0.301 25%:0.301 50%:0.311 75%:0.311 90%:0.311 95%:0.311 99%:0.311 99.9%:0.331 100%:0.381  # measured: counter's critical section (read, busy_loops(0), write back + 1) on a line held here, batches of 1000, each batch's mean; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.gap = 100%:43.7  # measured: a mean, not a distribution: lockbench -l none -w counter -t 1 -d 0.3 run in-process (bench_run) 5 times, the thread's CPU time / operations (median 44.0 ns, p10 43.9, p90 44.2), less the hold's median 0.3: the harness's loop and the timing of each acquisition; 2026-12-07 05:08 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
