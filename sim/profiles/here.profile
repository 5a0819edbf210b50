# lockbench machine profile (docs/sim.md): written by lbcalibrate --trials 500, 2026-12-07 02:06 UTC on vm
# AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272; /proc/loadavg at the start: 4.31 3.69 1.81 4/129 24164
# a source on every constant; what could not be measured here is said, not invented
name = here

# topology and clock
topology.sockets = 1  # measured: hwloc packages; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.cores_per_socket = 2  # measured: hwloc cores / packages; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.threads_per_core = 1  # measured: hwloc PUs / cores; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
clock.tsc_ghz = 2.0960  # measured: TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c); median of 5 trials (p10 2.10, p90 2.10 GHz); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# coherence, in TSC cycles
# lat.smt: not measurable here: hwloc shows no two usable CPUs on one core
# lat.remote: not measurable here: hwloc shows no two usable CPUs in different packages
lat.socket = 117.4  # measured: half a round trip of a store-then-poll ping-pong of one line, CPUs 0 and 1 (hwloc: two cores of one package), 200 round trips a trial; median of 500 trials (p10 112, p90 121 cycles); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.hit = 2.32  # measured: a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial; median of 500 trials (p10 2.32, p90 3.49 cycles); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.mem = 231.0  # measured: one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off; median of 500 trials (p10 210, p90 399 cycles); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.atomic_extra = 9.44  # measured: back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, less lat.hit; the spread is the RMW's own; median of 500 trials (p10 11.58, p90 16.44 cycles); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.pause = 39.04  # measured: back-to-back pause (cpu_relax), 2000 a trial; median of 500 trials (p10 38.30, p90 39.25 cycles); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# the kernel's costs, ns
kernel.syscall_ns = 966.0  # measured: syscall(SYS_getppid), 100 a trial; median of 500 trials (p10 954, p90 1140 ns); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wake_ns = 68.6  # measured: FUTEX_WAKE_PRIVATE with no waiter, 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -107.40, p90 250 ns); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wait_ns = 84.8  # measured: FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), 100 a trial, less the trial's getppid time (entry and exit); median of 500 trials (p10 -93.48, p90 287 ns); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.wake_latency_ns = 29571  # measured: TSC before FUTEX_WAKE_PRIVATE to TSC after the woken thread's FUTEX_WAIT returned, on the other CPU, idle 200 us before; median of 500 trials (p10 16992, p90 61707 ns); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.context_switch_ns = 3114  # measured: two threads on one CPU passing a turn through a futex, 400 passes a trial: one switch, one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass; median of 500 trials (p10 2811, p90 12252 ns); 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# schedulers: the first is used unless the run asks for the other
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)
sched.eevdf-6.x.hz = 250  # measured: CONFIG_HZ in /proc/config.gz; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, "sched: Reduce the default slice to avoid tasks getting an extra tick"); EEVDF's base slice, in min_granularity's place
sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)
sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): cpus = min_t(unsigned int, num_online_cpus(), 8)
# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)

# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points
workload.creat.hold = 0%:3236 1%:3296 5%:3336 10%:3366 25%:3416 50%:26029 75%:29626 90%:30317 95%:37070 99%:58932 99.9%:4132083 100%:12229004  # measured: creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in /tmp (ext4 on /dev/vda), one thread, no lock (create median 29616, unlink median 3416): each from TSC before to TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before it and the work after it counted in), 20000 calls; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.gap = 0%:40 1%:40 5%:40 10%:40 25%:50 50%:1503 75%:1633 90%:1653 95%:1673 99%:2745 99.9%:27682 100%:11602788  # measured: from one of those calls' return to the next one's start (close() after the create; the loop), 19999 gaps; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.hold = 0%:1092 1%:1122 5%:1563 10%:1583 25%:1623 50%:1683 75%:1763 90%:1904 95%:2054 99%:2525 99.9%:27101 100%:7954871  # measured: fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in /tmp (ext4), lseek() back at its end, one thread, no lock: each from TSC before to TSC after; a shared file's f_pos_lock is held inside for less (one thread alone does not take it), 10000 calls; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.gap = 0%:40 1%:40 5%:40 10%:40 25%:50 50%:50 75%:50 90%:60 95%:60 99%:70 99.9%:230 100%:38713  # measured: from one of those calls' return to the next one's start (the block's first and last words read; the loop), 9999 gaps; 2026-12-07 02:06 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
