/* resultfile_meta.c — meta.csv (result_parse_meta).  Format: results/README.md. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

/* ---- meta.csv: who the host is, and its lines as written ---- */

#define META_FORMAT "lockbench-meta-1"

/* The meta.csv keys lbcompare reads (results/README.md, "meta.csv"):
 * text ones land in struct result_host's fields, numbers in its counts. */
enum meta_field { META_FORMAT_KEY, META_HOSTNAME, META_KERNEL, META_CPU, META_PACKAGES, META_NUMA, META_CORES,
		  META_PUS, META_NR };
static const char *const meta_key[META_NR] = {
	[META_FORMAT_KEY] = "format", [META_HOSTNAME] = "hostname", [META_KERNEL] = "kernel_release",
	[META_CPU] = "cpu_brand", [META_PACKAGES] = "topology_packages", [META_NUMA] = "topology_numa_nodes",
	[META_CORES] = "topology_cores", [META_PUS] = "topology_pus_usable",
};

static int meta_field_of(const char *key, size_t klen)
{
	for (int f = 0; f < META_NR; f++)
		if (strlen(meta_key[f]) == klen && memcmp(meta_key[f], key, klen) == 0)
			return f;
	return -1;
}

/* A value of meta.csv as the host's text: trailing blanks dropped (libcpuid
 * pads brand strings); false when it does not fit. */
static bool meta_text(char *out, size_t outlen, const char *value, size_t vlen)
{
	while (vlen > 0 && value[vlen - 1] == ' ')
		vlen--;
	if (vlen == 0 || vlen >= outlen)
		return false;
	memcpy(out, value, vlen);
	out[vlen] = '\0';
	return true;
}

static bool meta_store(struct result_host *h, int field, const char *value, size_t vlen)
{
	unsigned int *count[META_NR] = {
		[META_PACKAGES] = &h->packages, [META_NUMA] = &h->numa_nodes,
		[META_CORES] = &h->cores, [META_PUS] = &h->pus,
	};
	uint64_t v;

	switch (field) {
	case META_FORMAT_KEY:
		return vlen == strlen(META_FORMAT) && memcmp(value, META_FORMAT, vlen) == 0;
	case META_HOSTNAME:
		return meta_text(h->name, sizeof(h->name), value, vlen);
	case META_KERNEL:
		return meta_text(h->kernel, sizeof(h->kernel), value, vlen);
	case META_CPU:
		return meta_text(h->cpu, sizeof(h->cpu), value, vlen);
	}
	if (!rf_parse_u64_span(value, vlen, &v) || v > RESULT_MAX_THREADS)
		return false;
	*count[field] = (unsigned int)v;
	return true;
}

/* The optional kernel_env keys: a word each (y, none, unknown...); 0 for
 * another key, -1 for a bad value. */
static int meta_kernel_env(struct result_kernel_env *k, const char *key, size_t klen, const char *value, size_t vlen)
{
	static const struct {
		const char *key;
		size_t field;
	} keys[] = {
		{ "kernel_mutex_spin_on_owner", offsetof(struct result_kernel_env, spin_on_owner) },
		{ "kernel_preempt", offsetof(struct result_kernel_env, preempt) },
		{ "kernel_vcpu_is_preempted", offsetof(struct result_kernel_env, vcpu_preempted) },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *out = (char *)k + keys[i].field;

		if (strlen(keys[i].key) != klen || memcmp(keys[i].key, key, klen) != 0)
			continue;
		if (vlen == 0 || vlen >= sizeof(k->preempt) || !rf_valid_key(value, vlen))
			return -1;
		memcpy(out, value, vlen);
		out[vlen] = '\0';
		return 1;
	}
	return 0;
}

static bool key_is(const char *key, size_t klen, const char *name)
{
	return klen == strlen(name) && memcmp(key, name, klen) == 0;
}

/* meta.csv's optional `simulated` (1 for a simulated run, --sim; 0 for a
 * real one), and `sim_profile`, `sim_cpus` appended to h->sim: 0 for
 * another key, -1 for a bad value. */
static int meta_simulated(struct result_host *h, const char *key, size_t klen, const char *value, size_t vlen)
{
	size_t used = strlen(h->sim);

	if (key_is(key, klen, "sim_profile") || key_is(key, klen, "sim_cpus")) {
		if (used + 1 + vlen >= sizeof(h->sim))
			return -1;
		snprintf(h->sim + used, sizeof(h->sim) - used, "%s%.*s", used ? " " : "", (int)vlen, value);
		return 1;
	}
	if (!key_is(key, klen, "simulated"))
		return 0;
	if (vlen != 1 || (value[0] != '0' && value[0] != '1'))
		return -1;
	h->simulated = value[0] == '1';
	return 1;
}

/* Every line a 'key,value' line, no key twice; the host's keys present and
 * well formed.  The other keys' values are only kept, as written (a long
 * --pin order or command line may exceed RESULT_VALUE_LEN). */
int result_parse_meta(struct result_run *run, const char *buf, size_t len, const char *what, char *err,
		      size_t errlen)
{
	size_t pos = 0, n, lineno = 0, klen = 0, vlen = 0, nkeys = 0;
	const char *line, *value = NULL;
	char keys[RESULT_MAX_KEYS][RESULT_KEY_LEN];
	bool seen[META_NR] = { false };

	run->host = (struct result_host){ 0 };
	memset(&run->kernel_env, 0, sizeof(run->kernel_env));
	while (rf_next_line(buf, len, &pos, &line, &n)) {
		int field;

		if (!rf_kv_line(line, n, ++lineno, what, &klen, &value, &vlen, err, errlen))
			return -1;
		if (lineno == 1)
			continue;
		for (size_t i = 0; i < nkeys; i++)
			if (strlen(keys[i]) == klen && memcmp(keys[i], line, klen) == 0) {
				snprintf(err, errlen, "%s: line %zu: key '%s' repeated", what, lineno, keys[i]);
				return -1;
			}
		if (nkeys >= RESULT_MAX_KEYS) {
			snprintf(err, errlen, "%s: more than %d keys", what, RESULT_MAX_KEYS);
			return -1;
		}
		memcpy(keys[nkeys], line, klen);
		keys[nkeys++][klen] = '\0';
		if (meta_kernel_env(&run->kernel_env, line, klen, value, vlen) < 0) {
			snprintf(err, errlen, "%s: line %zu: bad %.*s (a word)", what, lineno, (int)klen, line);
			return -1;
		}
		if (meta_simulated(&run->host, line, klen, value, vlen) < 0) {
			snprintf(err, errlen, "%s: line %zu: bad %.*s", what, lineno, (int)klen, line);
			return -1;
		}
		field = meta_field_of(line, klen);
		if (field < 0)
			continue;
		if (!meta_store(&run->host, field, value, vlen)) {
			snprintf(err, errlen, "%s: line %zu: bad %s", what, lineno, meta_key[field]);
			return -1;
		}
		seen[field] = true;
	}
	for (int f = 0; f < META_NR; f++)
		if (!seen[f]) {
			snprintf(err, errlen, lineno ? "%s: no %s" : "%s: empty file", what, meta_key[f]);
			return -1;
		}
	if (rf_keep_lines(&run->meta, buf, len, true) != 0) {
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	run->has_meta = true;
	return 0;
}
