# lockbench machine profile (docs/sim.md): written by lbcalibrate --trials 500, 2026-12-07 02:13 UTC on vm
# AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272; /proc/loadavg at the start: 11.26 10.65 6.02 13/164 348
# a source on every constant; what could not be measured here is said, not invented
name = here

# topology and clock
topology.sockets = 1  # measured: hwloc packages; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.cores_per_socket = 2  # measured: hwloc cores / packages; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.threads_per_core = 1  # measured: hwloc PUs / cores; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
clock.tsc_ghz = 2.0960  # measured: TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c); median of 5 trials (p10 2.10, p90 2.10 GHz); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# coherence, in TSC cycles
# lat.smt: not measurable here: hwloc shows no two usable CPUs on one core
# lat.remote: not measurable here: hwloc shows no two usable CPUs in different packages
lat.socket = 444.5  # measured: half a round trip of a store-then-poll ping-pong of one line, CPUs 0 and 1 (hwloc: two cores of one package), 200 round trips a trial; median of 500 trials (p10 428, p90 564 cycles); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.hit = 2.28  # measured: a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial; median of 500 trials (p10 2.27, p90 3.71 cycles); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.mem = 210.0  # measured: one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off; median of 500 trials (p10 168, p90 315 cycles); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.atomic_extra = 9.75  # measured: back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, less lat.hit; the spread is the RMW's own; median of 500 trials (p10 11.64, p90 12.57 cycles); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.pause = 38.38  # measured: back-to-back pause (cpu_relax), 2000 a trial; median of 500 trials (p10 37.80, p90 64.90 cycles); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# the kernel's costs, ns
kernel.syscall_ns = 1129.2  # measured: syscall(SYS_getppid), 100 a trial; median of 500 trials (p10 1038, p90 1698 ns); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wake_ns = 87.0  # measured: FUTEX_WAKE_PRIVATE with no waiter, 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -230.04, p90 565 ns); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wait_ns = 134.9  # measured: FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -291.35, p90 665 ns); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.wake_latency_ns = 55801  # measured: TSC before FUTEX_WAKE_PRIVATE to TSC after the woken thread's FUTEX_WAIT returned, on the other CPU, idle 200 us before; median of 500 trials (p10 31940, p90 3739009 ns); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.context_switch_ns = 3715  # measured: two threads on one CPU passing a turn through a futex, 20 passes a trial: one switch, one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass; median of 500 trials (p10 3264, p90 5688 ns); 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# schedulers: the first is used unless the run asks for the other
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)
sched.eevdf-6.x.hz = 250  # measured: CONFIG_HZ in /proc/config.gz; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, "sched: Reduce the default slice to avoid tasks getting an extra tick"); EEVDF's base slice, in min_granularity's place
sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)
sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): cpus = min_t(unsigned int, num_online_cpus(), 8)
# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)

# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points
workload.creat.hold = 0%:2745 1%:2926 5%:3006 10%:3056 25%:3166 50%:3567 75%:4018 90%:4789 95%:7675 99%:19146 99.9%:4309229 100%:20333259  # measured: creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in /dev/shm (tmpfs on tmpfs), one thread, no lock (create median 3937, unlink median 3166): each from TSC before to TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before it and the work after it counted in), 20000 calls; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.gap = 0%:30.1 1%:30.1 5%:40.1 10%:40.1 25%:40.1 50%:1483 75%:1683 90%:1783 95%:1884 99%:13305 99.9%:36469 100%:7720688  # measured: from one of those calls' return to the next one's start (close() after the create; the loop), 19999 gaps; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.hold = 0%:1142 1%:1282 5%:1894 10%:1954 25%:2054 50%:2224 75%:2475 90%:2946 95%:3717 99%:15008 99.9%:42591 100%:14323029  # measured: fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in /dev/shm (tmpfs), lseek() back at its end, one thread, no lock: each from TSC before to TSC after; a shared file's f_pos_lock is held inside for less (one thread alone does not take it), 10000 calls; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.gap = 0%:30.1 1%:30.1 5%:40.1 10%:40.1 25%:40.1 50%:50.1 75%:50.1 90%:50.1 95%:60.1 99%:70.1 99.9%:651 100%:13085  # measured: from one of those calls' return to the next one's start (the block's first and last words read; the loop), 9999 gaps; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.hold = 0%:0.411 1%:0.421 5%:0.431 10%:0.441 25%:0.451 50%:0.471 75%:0.491 90%:0.521 95%:0.531 99%:0.581 99.9%:0.671 100%:29.2  # measured: counter's critical section (read, busy_loops(0), write back + 1) on a line held here, batches of 1000, each batch's mean; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.gap = 100%:48.6  # measured: a mean, not a distribution: lockbench -l none -w counter -t 1 -d 0.3 run in-process (bench_run) 5 times, the thread's CPU time / operations (median 49.1 ns, p10 48.9, p90 50.4), less the hold's median 0.5: the harness's loop and the timing of each acquisition; 2026-12-07 02:13 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
