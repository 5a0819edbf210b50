# lockbench machine profile (docs/sim.md): written by lbcalibrate --trials 500, 2026-12-07 02:09 UTC on vm
# AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272; /proc/loadavg at the start: 20.47 11.50 5.13 8/167 10066
# a source on every constant; what could not be measured here is said, not invented
name = here

# topology and clock
topology.sockets = 1  # measured: hwloc packages; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.cores_per_socket = 2  # measured: hwloc cores / packages; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.threads_per_core = 1  # measured: hwloc PUs / cores; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
clock.tsc_ghz = 2.0960  # measured: TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c); median of 5 trials (p10 2.10, p90 2.10 GHz); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# coherence, in TSC cycles
# lat.smt: not measurable here: hwloc shows no two usable CPUs on one core
# lat.remote: not measurable here: hwloc shows no two usable CPUs in different packages
lat.socket = 478.7  # measured: half a round trip of a store-then-poll ping-pong of one line, CPUs 0 and 1 (hwloc: two cores of one package), 200 round trips a trial; median of 500 trials (p10 455, p90 582 cycles); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.hit = 2.36  # measured: a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial; median of 500 trials (p10 2.34, p90 2.36 cycles); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.mem = 231.0  # measured: one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off; median of 500 trials (p10 210, p90 420 cycles); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.atomic_extra = 9.48  # measured: back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, less lat.hit; the spread is the RMW's own; median of 500 trials (p10 11.81, p90 11.94 cycles); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.pause = 39.33  # measured: back-to-back pause (cpu_relax), 2000 a trial; median of 500 trials (p10 39.15, p90 59.91 cycles); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# the kernel's costs, ns
kernel.syscall_ns = 977.2  # measured: syscall(SYS_getppid), 100 a trial; median of 500 trials (p10 964, p90 1184 ns); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wake_ns = 96.7  # measured: FUTEX_WAKE_PRIVATE with no waiter, 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -90.67, p90 298 ns); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wait_ns = 118.3  # measured: FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -76.24, p90 323 ns); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.wake_latency_ns = 34420  # measured: TSC before FUTEX_WAKE_PRIVATE to TSC after the woken thread's FUTEX_WAIT returned, on the other CPU, idle 200 us before; median of 500 trials (p10 28624, p90 94028 ns); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.context_switch_ns = 3207  # measured: two threads on one CPU passing a turn through a futex, 400 passes a trial: one switch, one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass; median of 500 trials (p10 2927, p90 13042 ns); 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# schedulers: the first is used unless the run asks for the other
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)
sched.eevdf-6.x.hz = 250  # measured: CONFIG_HZ in /proc/config.gz; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, "sched: Reduce the default slice to avoid tasks getting an extra tick"); EEVDF's base slice, in min_granularity's place
sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)
sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): cpus = min_t(unsigned int, num_online_cpus(), 8)
# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)

# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points
workload.creat.hold = 0%:2204 1%:2234 5%:2254 10%:2264 25%:2294 50%:2505 75%:2705 90%:2976 95%:3587 99%:13976 99.9%:77286 100%:12263518  # measured: creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in /dev/shm (tmpfs on tmpfs), one thread, no lock (create median 2695, unlink median 2294): each from TSC before to TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before it and the work after it counted in), 20000 calls; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.gap = 0%:30.1 1%:30.1 5%:30.1 10%:30.1 25%:40.1 50%:1373 75%:1433 90%:1473 95%:1503 99%:1833 99.9%:24496 100%:8457462  # measured: from one of those calls' return to the next one's start (close() after the create; the loop), 19999 gaps; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.hold = 0%:1172 1%:1252 5%:1864 10%:1894 25%:1934 50%:1974 75%:2034 90%:2134 95%:2314 99%:3176 99.9%:28143 100%:7171728  # measured: fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in /dev/shm (tmpfs), lseek() back at its end, one thread, no lock: each from TSC before to TSC after; a shared file's f_pos_lock is held inside for less (one thread alone does not take it), 10000 calls; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.gap = 0%:30.1 1%:30.1 5%:30.1 10%:30.1 25%:40.1 50%:40.1 75%:40.1 90%:50.1 95%:50.1 99%:60.1 99.9%:110 100%:10059  # measured: from one of those calls' return to the next one's start (the block's first and last words read; the loop), 9999 gaps; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.hold = 0%:0.321 1%:0.321 5%:0.321 10%:0.321 25%:0.321 50%:0.331 75%:0.331 90%:0.331 95%:0.331 99%:0.331 99.9%:0.371 100%:0.411  # measured: counter's critical section (read, busy_loops(0), write back + 1) on a line held here, batches of 1000, each batch's mean; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.gap = 100%:108.8  # measured: a mean, not a distribution: lockbench -l none -w counter -t 1 -d 0.3 run in-process (bench_run) 5 times, measured time / operations (median 109.1 ns, p10 95.2, p90 131.1), less the hold's median 0.3: the harness's loop and the timing of each acquisition; 2026-12-07 02:09 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
