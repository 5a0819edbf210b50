/*
 * splitmix64.h — the one small random generator lockbench and lbcompare use:
 * splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), a 64-bit state stepped by a fixed odd constant
 * and mixed.  Well mixed for any seed, 0 included, and reproducible: the
 * same seed gives the same stream on every machine.  Its users each keep
 * their own state (fserver's per-thread stream, --timing sample's gaps,
 * lbcompare's resampling), so no stream shares draws with another.
 */
#ifndef LOCKBENCH_SPLITMIX64_H
#define LOCKBENCH_SPLITMIX64_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif
