# lockbench machine profile (docs/sim.md): written by lbcalibrate --trials 500, 2026-12-07 02:34 UTC on vm
# AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272; /proc/loadavg at the start: 7.40 8.59 9.02 10/139 5701
# a source on every constant; what could not be measured here is said, not invented
name = here

# topology and clock
topology.sockets = 1  # measured: hwloc packages; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.cores_per_socket = 2  # measured: hwloc cores / packages; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
topology.threads_per_core = 1  # measured: hwloc PUs / cores; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
clock.tsc_ghz = 2.0960  # measured: TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c); median of 5 trials (p10 2.10, p90 2.10 GHz); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# coherence, in TSC cycles
# lat.smt: not measurable here: hwloc shows no usable SMT sibling of the first usable CPU
lat.socket = 465.0  # measured: half a round trip of a store-then-poll ping-pong of one line, CPUs 0 and 1 (hwloc: two cores of one package), 200 round trips a trial; median of 500 trials (p10 448, p90 572 cycles); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
# lat.remote: not measurable here: hwloc shows no usable CPU in another package than the first usable CPU's
lat.hit = 2.41  # measured: a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial; median of 500 trials (p10 2.40, p90 4.68 cycles); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.mem = 252.0  # measured: one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off; median of 500 trials (p10 189, p90 378 cycles); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.atomic_extra = 9.61  # measured: back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, less lat.hit; the spread is the RMW's own; median of 500 trials (p10 11.97, p90 17.14 cycles); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
lat.pause = 39.89  # measured: back-to-back pause (cpu_relax), 2000 a trial; median of 500 trials (p10 39.56, p90 62.60 cycles); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# the kernel's costs, ns
kernel.syscall_ns = 971.8  # measured: syscall(SYS_getppid), each call timed alone (the TSC pair's cost taken off), a trial the median of 101; median of 500 trials (p10 952, p90 1022 ns); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wake_ns = 70.1  # measured: FUTEX_WAKE_PRIVATE with no waiter, timed as getppid in turn with it, less the trial's getppid (entry and exit); median of 500 trials (p10 60.11, p90 80.15 ns); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.futex_wait_ns = 90.2  # measured: FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), timed as getppid in turn with it, less the trial's getppid (entry and exit); median of 500 trials (p10 80.15, p90 110 ns); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.wake_latency_ns = 34295  # measured: TSC before FUTEX_WAKE_PRIVATE on CPU 0 to TSC after the woken thread's FUTEX_WAIT returned on CPU 1, idle 200 us before (their TSCs agree within 260 ns); median of 500 trials (p10 28143, p90 1766965 ns); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
kernel.context_switch_ns = 3123  # measured: two threads on one CPU passing a turn through a futex, 20 passes a trial: one switch, one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass; median of 500 trials (p10 2933, p90 3481 ns); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)

# schedulers: the first is used unless the run asks for the other
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)
sched.eevdf-6.x.hz = 250  # measured: CONFIG_HZ in /proc/config.gz; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, "sched: Reduce the default slice to avoid tasks getting an extra tick"); EEVDF's base slice, in min_granularity's place
sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)
sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): cpus = min_t(unsigned int, num_online_cpus(), 8)
# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)

# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points
workload.creat.hold = 0%:2054 1%:2104 5%:2144 10%:2174 25%:2224 50%:2425 75%:2635 90%:3206 95%:4829 99%:14107 99.9%:255223 100%:12196983  # measured: creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in /dev/shm (tmpfs on tmpfs), one thread, no lock (create median 2625, unlink median 2224): each from TSC before to TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before it and the work after it counted in: workload.creat.outside_ns), 20000 calls; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.gap = 0%:30.1 1%:30.1 5%:30.1 10%:30.1 25%:40.1 50%:1312 75%:1373 90%:1413 95%:1463 99%:10340 99.9%:32822 100%:8197280  # measured: from one of those calls' return to the next one's start (close() after the create; the loop), 19999 gaps; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.creat.outside_ns = 1603  # measured: open() O_RDONLY of a file that is there, in the same directory: the call's entry and exit, the walk to a cached dentry and the open, none of it under the directory's i_rwsem; an estimate of the part of a creating call outside the lock; median of 500 trials (p10 1573, p90 1663 ns); 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.hold = 0%:1132 1%:1212 5%:1854 10%:1894 25%:1954 50%:2064 75%:2274 90%:2575 95%:2936 99%:4969 99.9%:283797 100%:21142520  # measured: fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in /dev/shm (tmpfs), lseek() back at its end, one thread, no lock: each from TSC before to TSC after; a shared file's f_pos_lock is held inside for less (one thread alone does not take it), 10000 calls; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.gap = 0%:40.1 1%:40.1 5%:40.1 10%:50.1 25%:50.1 50%:50.1 75%:60.1 90%:60.1 95%:60.1 99%:70.1 99.9%:170 100%:1643  # measured: from one of those calls' return to the next one's start (the block's first and last words read; the loop), 9999 gaps; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fpos.outside_ns = 1052  # measured: read() of the same file through a write-only descriptor: the call's entry and exit and the descriptor's lookup (ksys_read's fdget_pos), then vfs_read refuses it (EBADF, not FMODE_READ) before any of the read's work, none of it under f_pos_lock (Linux 6.x fs/read_write.c); an estimate of the part of fpos's calls outside the lock; median of 500 trials (p10 1042, p90 1062 ns); 2026-12-07 05:43 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.hold = 0%:0.311 1%:0.311 5%:0.321 10%:0.321 25%:0.321 50%:0.321 75%:0.341 90%:0.371 95%:0.381 99%:0.481 99.9%:0.511 100%:0.551  # measured: counter's critical section (read, busy_loops(0), write back + 1) on a line held here, batches of 1000, each batch's mean; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.counter.gap = 100%:47.4  # measured: a mean, not a distribution: lockbench -l none -w counter -t 1 -d 0.3 run in-process (bench_run) 5 times, the thread's CPU time / operations (median 47.7 ns, p10 47.2, p90 49.9), less the hold's median 0.3: the harness's loop and the timing of each acquisition; 2026-12-07 02:34 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fserver.hold = 0%:1152 1%:1302 5%:1323 10%:1343 25%:1443 50%:1643 75%:1984 90%:2926 95%:5400 99%:13946 99.9%:40697 100%:7531350  # measured: fserver's locked calls (creat, unlink, mkdir, rmdir, getdents, link, fstatat, open, pread, pwrite, fdatasync: 1475 a job) in /dev/shm (tmpfs), the workload itself run in-process (bench_run, -t 1, --timing off) under a pseudo-lock that records the TSC at each lock()'s return and unlock()'s start, a first job not recorded: each call; the kernel's own locks are held inside for less, 20650 calls; 2026-12-07 05:43 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fserver.gap = 0%:30.1 1%:30.1 5%:30.1 10%:40.1 25%:50.1 50%:60.1 75%:100 90%:2495 95%:16501 99%:60204 99.9%:173669 100%:6089220  # measured: from one locked call's unlock to the next one's lock (the mix's unlocked tests, the close()s, the harness's loop; between two jobs, the next one's shuffle), 20649 gaps; 2026-12-07 05:43 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
workload.fserver.acq_per_op = 1475  # measured: the locked calls of one job (a simulated run counts a job per that many acquisitions), counted by the pseudo-lock over a first job; 2026-12-07 05:43 UTC on vm (AMD EPYC, 1 x 2 x 1 CPUs, Linux 6.18.44-fc-v1272)
