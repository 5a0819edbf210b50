# lockbench machine profile (docs/sim.md, "The seed's machine"): Tim Chen's 2010 test box, as far as published
# figures describe it. The patch (shared/seeds/001-*.patch) says only "8 socket Nehalem-EX system with a total of
# 64 cores" in "HT mode". The part is taken as the Xeon X7560 (the top 8-core bin): see docs/sim.md for the
# uncertainty. Latencies are TSC cycles of this machine (clock.tsc_ghz); kernel and workload times are ns.
# Sources: cited (a publication, its table) or derived (from what, by what rule); nothing measured on that box.
# Written by hand 2026-12-07; no constant was chosen by running a simulation.
name = nehalem-ex-64

# topology and clock
topology.sockets = 8  # cited: the patch's own words (shared/seeds/001-*.patch, Tim Chen, LKML 2010-08-18): "8 socket Nehalem-EX system with a total of 64 cores"
topology.cores_per_socket = 8  # cited: the same patch (64 cores over 8 sockets); Nehalem-EX 8-core parts: tecchannel.de "Intel Xeon X7560 - Neue 8-Core-CPU im Test" (2010), p. 2
topology.threads_per_core = 2  # cited: the same patch, "(HT mode)"; Xeon 7500: 8 cores, 16 threads per socket (tecchannel.de, ibid., p. 2)
topology.links = 0-1 1-2 2-3 3-4 4-5 5-6 6-7 0-7 0-4 1-5 2-6 3-7  # derived: no published link map of the glueless 8-socket Nehalem-EX was found; each socket has three QPI links to other sockets (bit-tech.net "Intel Xeon X7560 Nehalem EX Review" 2010, p. 3) and no pair is more than two hops apart (David et al. SOSP 2013, Table 2: one-hop and two-hop latencies only), so the map must be a 3-regular graph of diameter 2 on 8 sockets; this one is the Moebius ladder (an 8-cycle and its 4 long diagonals): every socket has 3 one-hop and 4 two-hop peers, as those sources give, but which pairs are linked is this choice
clock.tsc_ghz = 2.2667  # cited: Xeon X7560 nominal clock 2.26 GHz (17 x 133.33 MHz; tecchannel.de, ibid., p. 2: "2,26 GHz Grundtaktfrequenz", Turbo to 2.66); Intel SDM vol. 3B, "Time-Stamp Counter": on Nehalem the TSC ticks at the constant nominal rate, not the Turbo clock

# coherence, in TSC cycles of this machine. David, Guerraoui, Trigonakis, "Everything You Always Wanted to Know
# About Synchronization but Were Afraid to Ask", SOSP 2013, Table 2, measured the next generation on the same
# platform: 8 x 10-core Westmere-EX E7-8867L, 2.13 GHz, in cycles of that TSC. Converted here through ns
# (cycles / 2.13 x 2.2667): the transfers are uncore work (ring, QPI), timed in ns, not core cycles.
# Table 2's load-from-Modified row (109, 289, 400) was read here in a stored copy that quotes it; the paper's own
# text was not, so its Invalid and atomic rows (355, 120) are given as the paper reports them, to be checked
# against the PDF (docs/sim.md, "What was not found").
lat.hit = 4  # cited: Intel 64 and IA-32 Architectures Optimization Reference Manual, Nehalem microarchitecture, load latency table: L1 data cache 4 cycles; Molka et al., PACT 2009 (Nehalem-EP X5570), L1 latency 4 cycles; core cycles, equal to TSC cycles at the nominal clock (Turbo would make it about 3.4)
lat.smt = 4  # derived: no published measurement of a line passed between Nehalem SMT siblings was found; the two threads share the core's L1 data cache (Intel Optimization Reference Manual, Nehalem, Hyper-Threading), so the line does not move and lat.hit is charged; a lower bound (a memory-ordering machine clear on the sibling's store is not counted)
lat.socket = 116.0  # cited: David et al. SOSP 2013, Table 2, Xeon (Westmere-EX), load from a line Modified in another core, same die: 109 cycles at 2.13 GHz = 51.2 ns; Nehalem-EX's own L3 load-to-use latency is 21 ns (Intel, quoted by AnandTech "Xeon 7500 / Dell R810", 2010, p. 3), a lower bound for this
lat.remote = 307.5  # cited: David et al. SOSP 2013, Table 2, Xeon, load from Modified, one hop: 289 cycles at 2.13 GHz = 135.7 ns; three of the other seven sockets are one hop away (each socket has three QPI links to other sockets, one to the I/O hub: bit-tech.net "Intel Xeon X7560 Nehalem EX Review" 2010, p. 3)
lat.remote_2hop = 425.7  # cited: David et al. SOSP 2013, Table 2, Xeon, load from Modified, two hops: 400 cycles at 2.13 GHz = 187.8 ns; the four other sockets
lat.mem = 377.8  # cited: David et al. SOSP 2013, Table 2, Xeon, load of a line no cache holds (Invalid), same die, i.e. local memory: 355 cycles at 2.13 GHz = 166.7 ns (Nehalem-EX memory goes through SMB buffers: AnandTech, ibid., p. 3)
lat.atomic_extra = 11.7  # cited: David et al. SOSP 2013, Table 2, Xeon, an atomic (CAS, FAI, TAS, SWAP) on a line Modified in another core, same die, 120 cycles, less the load from Modified, 109: 11 cycles at 2.13 GHz = 5.2 ns (one hop: 324 less 289, 35 cycles)
lat.pause = 10  # cited: Intel 64 and IA-32 Architectures Optimization Reference Manual, Skylake server section, "Pause latency": about 10 cycles in the generations before Skylake (up to 140 in Skylake); not a Nehalem-specific figure

# the kernel's costs, ns: no published figure for 2.6.34 on Nehalem-EX was found (docs/sim.md). These are this
# VM's (here.profile) scaled as the workload times below, and carry today's costs: PTI on every entry and exit,
# a hypervisor exit on every wake-up of an idle vCPU. They overstate 2010's bare metal; the sensitivity sweep
# (issue 41) halves and doubles each.
kernel.syscall_ns = 899  # derived: here.profile kernel.syscall_ns 971.8 ns x 0.9247 (the TSC ratio 2.0960 / 2.2667, see workload below); includes PTI, which 2.6.34 did not have
kernel.futex_wake_ns = 64.8  # derived: here.profile kernel.futex_wake_ns 70.1 ns x 0.9247 (TSC ratio)
kernel.futex_wait_ns = 83.4  # derived: here.profile kernel.futex_wait_ns 90.2 ns x 0.9247 (TSC ratio)
kernel.wake_latency_ns = 31713  # derived: here.profile kernel.wake_latency_ns 34295 ns x 0.9247 (TSC ratio); a VM's wake-up (a hypervisor exit), far above bare metal: the least trustworthy constant here
kernel.context_switch_ns = 2888  # derived: here.profile kernel.context_switch_ns 3123 ns x 0.9247 (TSC ratio)

# the scheduler: Linux 2.6.34's CFS (the patch's base). The loader scales the tunables for 128 CPUs as
# 2.6.34's update_sysctl() does: factor 1 + ilog2(min(128, 8)) = 4, so 20 ms / 4 ms / 4 ms.
sched.model = cfs-2.6.34
sched.cfs-2.6.34.hz = 1000  # cited: RHEL 6's kernel-2.6.32 x86_64 config (configs/kernel-2.6.32-x86_64.config in the RHEL 6 kernel source, mirrored at github.com/bergwolf/rhel6 commit 7d4c6131): CONFIG_HZ_1000=y, CONFIG_HZ=1000; mainline's default is HZ_250 (kernel/Kconfig.hz); no SLES 11 config was found
sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_latency = 5000000ULL
sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_min_granularity = 1000000ULL
sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: normalized_sysctl_sched_wakeup_granularity = 1000000UL
sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: static unsigned int sched_nr_latency = 5
sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling = SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized
sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): cpus = min_t(int, num_online_cpus(), 8)

# the workloads' kernel times, ns: here.profile's (measured 2026-12-07 05:08 UTC on this project's VM; fpos.outside_ns and fserver's 05:57) x 0.9247,
# the ratio of the two TSC clocks (2.0960 GHz here / 2.2667 GHz there). Why the clock ratio, not the memory-latency
# ratio (1.39: 166.7 ns there, 120 ns here): the calibration timed each call alone, one thread, its lines warm in
# the cache, so its time is the core's work, which scales with the clock. Its known errors go both ways: a 2010
# core does less per cycle than today's (times too short here), and today's calls pay PTI and a VM (too long).
# Written by scripts/profile-workloads.sh sim/profiles/here.profile 0.9247 "TSC ratio".
workload.creat.hold = 0%:1844 1%:1890 5%:1909 10%:1918 25%:1955 50%:2149 75%:2353 90%:2928 95%:4308 99%:11886 99.9%:23838 100%:181418  # derived: here.profile workload.creat.hold (measured 2026-12-07 05:08 UTC), every point x 0.9247 (TSC ratio)
workload.creat.gap = 0%:37.1 1%:37.1 5%:37.1 10%:37.1 25%:46.3 50%:1176 75%:1223 90%:1260 95%:1288 99%:1455 99.9%:20650 100%:173404  # derived: here.profile workload.creat.gap (measured 2026-12-07 05:08 UTC), every point x 0.9247 (TSC ratio)
workload.creat.outside_ns = 1418  # derived: here.profile workload.creat.outside_ns (measured 2026-12-07 05:08 UTC), 1533 ns x 0.9247 (TSC ratio)
workload.creat.acq_per_op = 2  # derived: here.profile workload.creat.acq_per_op (measured 2026-12-07 06:04 UTC), the same: a count, not scaled
workload.fpos.hold = 0%:1047 1%:1093 5%:1676 10%:1704 25%:1751 50%:1816 75%:1890 90%:2381 95%:3298 99%:12359 99.9%:24894 100%:64944  # derived: here.profile workload.fpos.hold (measured 2026-12-07 05:08 UTC), every point x 0.9247 (TSC ratio)
workload.fpos.gap = 0%:37.1 1%:46.3 5%:46.3 10%:46.3 25%:46.3 50%:46.3 75%:55.6 90%:55.6 95%:55.6 99%:74.2 99.9%:9070 100%:45025  # derived: here.profile workload.fpos.gap (measured 2026-12-07 05:08 UTC), every point x 0.9247 (TSC ratio)
workload.fpos.outside_ns = 945  # derived: here.profile workload.fpos.outside_ns (measured 2026-12-07 05:57 UTC), 1022 ns x 0.9247 (TSC ratio)
workload.counter.hold = 0%:0.278 1%:0.278 5%:0.278 10%:0.278 25%:0.278 50%:0.288 75%:0.288 90%:0.288 95%:0.288 99%:0.288 99.9%:0.306 100%:0.352  # derived: here.profile workload.counter.hold (measured 2026-12-07 05:08 UTC), every point x 0.9247 (TSC ratio)
workload.counter.gap = 100%:40.4  # derived: here.profile workload.counter.gap (measured 2026-12-07 05:08 UTC), every point x 0.9247 (TSC ratio)
workload.fserver.hold = 0%:1121 1%:1307 5%:1390 10%:1455 25%:1612 50%:1955 75%:2446 90%:3419 95%:4373 99%:12377 99.9%:27377 100%:39541  # derived: here.profile workload.fserver.hold (measured 2026-12-07 05:57 UTC), every point x 0.9247 (TSC ratio)
workload.fserver.gap = 0%:18.5 1%:27.8 5%:27.8 10%:27.8 25%:46.3 50%:64.8 75%:185 90%:2715 95%:17723 99%:56949 99.9%:117335 100%:186671  # derived: here.profile workload.fserver.gap (measured 2026-12-07 05:57 UTC), every point x 0.9247 (TSC ratio)
workload.fserver.acq_per_op = 1475  # derived: here.profile workload.fserver.acq_per_op (measured 2026-12-07 05:57 UTC), the same: a count, not scaled
