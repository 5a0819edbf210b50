# lockbench machine profile (docs/sim.md): written by lbcalibrate --trials 500, 2026-12-07 02:21 UTC on vm
# AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272; /proc/loadavg at the start: 11.71 13.12 9.53 7/151 32215
# a source on every constant; what could not be measured here is said, not invented
name = here

# topology and clock
topology.sockets = 1  # measured: hwloc packages; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.cores_per_socket = 2  # measured: hwloc cores / packages; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.threads_per_core = 1  # measured: hwloc PUs / cores; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
clock.tsc_ghz = 2.0960  # measured: TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c); median of 5 trials (p10 2.10, p90 2.10 GHz); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# coherence, in TSC cycles
# lat.smt: not measurable here: hwloc shows no two usable CPUs on one core
# lat.remote: not measurable here: hwloc shows no two usable CPUs in different packages
lat.socket = 474.8  # measured: half a round trip of a store-then-poll ping-pong of one line, CPUs 0 and 1 (hwloc: two cores of one package), 200 round trips a trial; median of 500 trials (p10 456, p90 572 cycles); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.hit = 2.28  # measured: a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial; median of 500 trials (p10 2.28, p90 3.48 cycles); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.mem = 210.0  # measured: one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off; median of 500 trials (p10 168, p90 336 cycles); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.atomic_extra = 9.11  # measured: back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, less lat.hit; the spread is the RMW's own; median of 500 trials (p10 11.39, p90 11.41 cycles); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.pause = 37.57  # measured: back-to-back pause (cpu_relax), 2000 a trial; median of 500 trials (p10 37.54, p90 47.63 cycles); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# the kernel's costs, ns
kernel.syscall_ns = 964.0  # measured: syscall(SYS_getppid), 100 a trial; median of 500 trials (p10 932, p90 1404 ns); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wake_ns = 74.7  # measured: FUTEX_WAKE_PRIVATE with no waiter, 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -189.56, p90 346 ns); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wait_ns = 103.2  # measured: FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -186.55, p90 434 ns); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.wake_latency_ns = 40121  # measured: TSC before FUTEX_WAKE_PRIVATE to TSC after the woken thread's FUTEX_WAIT returned, on the other CPU, idle 200 us before; median of 500 trials (p10 28955, p90 3811176 ns); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.context_switch_ns = 2736  # measured: two threads on one CPU passing a turn through a futex, 20 passes a trial: one switch, one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass; median of 500 trials (p10 2542, p90 3959 ns); 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# schedulers: the first is used unless the run asks for the other
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)
sched.eevdf-6.x.hz = 250  # measured: CONFIG_HZ in /proc/config.gz; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, "sched: Reduce the default slice to avoid tasks getting an extra tick"); EEVDF's base slice, in min_granularity's place
sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)
sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): cpus = min_t(unsigned int, num_online_cpus(), 8)
# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)

# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points
workload.creat.hold = 0%:2004 1%:2044 5%:2064 10%:2074 25%:2114 50%:2304 75%:2455 90%:2765 95%:3487 99%:12985 99.9%:115218 100%:16488488  # measured: creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in /dev/shm (tmpfs on tmpfs), one thread, no lock (create median 2445, unlink median 2114): each from TSC before to TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before it and the work after it counted in: an open of a file that is there, which takes no i_rwsem, takes a median 1593), 20000 calls; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.gap = 0%:30.1 1%:30.1 5%:30.1 10%:30.1 25%:30.1 50%:1252 75%:1312 90%:1363 95%:1413 99%:1733 99.9%:22663 100%:14542454  # measured: from one of those calls' return to the next one's start (close() after the create; the loop), 19999 gaps; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.hold = 0%:1072 1%:1132 5%:1763 10%:1793 25%:1833 50%:1894 75%:2004 90%:2415 95%:2625 99%:4288 99.9%:27422 100%:16084393  # measured: fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in /dev/shm (tmpfs), lseek() back at its end, one thread, no lock: each from TSC before to TSC after; a shared file's f_pos_lock is held inside for less (one thread alone does not take it), 10000 calls; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.gap = 0%:30.1 1%:40.1 5%:50.1 10%:50.1 25%:50.1 50%:50.1 75%:60.1 90%:60.1 95%:60.1 99%:70.1 99.9%:170 100%:24025  # measured: from one of those calls' return to the next one's start (the block's first and last words read; the loop), 9999 gaps; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.hold = 0%:0.311 1%:0.311 5%:0.311 10%:0.311 25%:0.311 50%:0.311 75%:0.321 90%:0.321 95%:0.321 99%:0.321 99.9%:0.471 100%:27.1  # measured: counter's critical section (read, busy_loops(0), write back + 1) on a line held here, batches of 1000, each batch's mean; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.gap = 100%:45.9  # measured: a mean, not a distribution: lockbench -l none -w counter -t 1 -d 0.3 run in-process (bench_run) 5 times, the thread's CPU time / operations (median 46.2 ns, p10 45.3, p90 49.3), less the hold's median 0.3: the harness's loop and the timing of each acquisition; 2026-12-07 02:21 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
