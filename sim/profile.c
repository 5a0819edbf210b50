/*
 * profile.c — reading a machine profile (profile.h; the format is in
 * docs/sim.md, "Machine profiles").  One `key = value  # source` a line;
 * blank lines and lines starting with '#' are comments.  The keys are of
 * three kinds: fixed ones (the table below), a scheduler model's
 * `sched.MODEL.PARAM` and a workload's `workload.NAME.hold|gap|outside_ns`.
 */
#define _GNU_SOURCE
#include "profile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/safefile.h"

#define KEY_MAX 96
#define KEYS_MAX 256

enum ktype { K_UINT, K_DOUBLE, K_TEXT };

/* A fixed key: where it goes, its type and range, and whether it must be
 * there (REQ_ALWAYS) or only where the topology has such a pair. */
enum kreq { REQ_ALWAYS, REQ_SMT, REQ_SOCKET, REQ_REMOTE, REQ_NO };

struct fixed_key {
	const char *key;
	enum ktype type;
	size_t off, size;      /* size: a text field's buffer */
	double min, max;       /* inclusive; a latency's min is > 0 (see gt0) */
	bool gt0;              /* the value must be above min, not equal */
	bool sourced;          /* a `# measured:` or `# cited:` source is required */
	enum kreq req;
};

#define F(k, t, field, lo, hi, g, src, rq) \
	{ k, t, offsetof(struct sim_profile, field), sizeof(((struct sim_profile *)0)->field), lo, hi, g, src, rq }
static const struct fixed_key fixed_keys[] = {
	F("name", K_TEXT, name, 0, 0, false, false, REQ_ALWAYS),
	F("topology.sockets", K_UINT, sockets, 1, 1024, false, true, REQ_ALWAYS),
	F("topology.cores_per_socket", K_UINT, cores_per_socket, 1, 4096, false, true, REQ_ALWAYS),
	F("topology.threads_per_core", K_UINT, threads_per_core, 1, 16, false, true, REQ_ALWAYS),
	F("clock.tsc_ghz", K_DOUBLE, tsc_ghz, 0.01, 100, false, true, REQ_ALWAYS),
	F("lat.hit", K_DOUBLE, lat_hit, 0, 1e6, true, true, REQ_ALWAYS),
	F("lat.smt", K_DOUBLE, lat_smt, 0, 1e6, true, true, REQ_SMT),
	F("lat.socket", K_DOUBLE, lat_socket, 0, 1e6, true, true, REQ_SOCKET),
	F("lat.remote", K_DOUBLE, lat_remote, 0, 1e6, true, true, REQ_REMOTE),
	F("lat.remote_2hop", K_DOUBLE, lat_remote_2hop, 0, 1e6, true, true, REQ_NO),
	F("lat.mem", K_DOUBLE, lat_mem, 0, 1e6, true, true, REQ_ALWAYS),
	F("lat.atomic_extra", K_DOUBLE, atomic_extra, 0, 1e6, false, true, REQ_ALWAYS),
	F("lat.pause", K_DOUBLE, pause_cycles, 0, 1e6, true, true, REQ_ALWAYS),
	F("sched.model", K_TEXT, sched_model, 0, 0, false, false, REQ_ALWAYS),
	F("kernel.wake_latency_ns", K_DOUBLE, wake_latency_ns, 0, 1e9, true, true, REQ_ALWAYS),
	F("kernel.context_switch_ns", K_DOUBLE, context_switch_ns, 0, 1e9, true, true, REQ_ALWAYS),
	F("kernel.syscall_ns", K_DOUBLE, syscall_ns, 0, 1e9, true, true, REQ_ALWAYS),
	F("kernel.futex_wait_ns", K_DOUBLE, futex_wait_ns, 0, 1e9, true, true, REQ_ALWAYS),
	F("kernel.futex_wake_ns", K_DOUBLE, futex_wake_ns, 0, 1e9, true, true, REQ_ALWAYS),
};
#undef F
#define N_FIXED (sizeof(fixed_keys) / sizeof(fixed_keys[0]))

/* A scheduler model's parameters: `sched.MODEL.PARAM`. */
enum sparam { S_HZ, S_NR_LATENCY, S_SCALING, S_SCALING_CAP, S_LATENCY, S_MIN_GRAN, S_WAKEUP_GRAN, S_N };
static const struct {
	const char *name;
	double min, max;
	bool required;
} sched_params[S_N] = {
	[S_HZ] = { "hz", 10, 100000, true },
	[S_NR_LATENCY] = { "nr_latency", 1, 100000, false },
	[S_SCALING] = { "scaling", 0, 0, true },
	[S_SCALING_CAP] = { "scaling_cap", 1, 1000000, true },
	[S_LATENCY] = { "latency_ns", 1e3, 1e10, false },
	[S_MIN_GRAN] = { "min_granularity_ns", 1e3, 1e10, true },
	[S_WAKEUP_GRAN] = { "wakeup_granularity_ns", 1e3, 1e10, false },
};
static const char *const scaling_names[] = { [SIM_SCALE_NONE] = "none", [SIM_SCALE_LOG] = "log",
	[SIM_SCALE_LINEAR] = "linear" };

/* The state of one load: the file's name for messages, the line, the keys
 * seen (to refuse a second), and which model and workload keys were set. */
struct parser {
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
	unsigned n_seen;
	char seen[KEYS_MAX][KEY_MAX];
	unsigned seen_line[KEYS_MAX];
	unsigned sched_set[SIM_SCHED_MODELS_MAX];    /* bit per enum sparam */
	unsigned wl_set[SIM_WORKLOADS_MAX];          /* bit 0 hold, bit 1 gap */
};

static int perr(struct parser *ps, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "FILE:LINE: KEY: why" (LINE left out for what no line holds). */
static int perr(struct parser *ps, const char *key, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ps->line)
		snprintf(ps->err, ps->errlen, "%s:%u: %s: %s", ps->file, ps->line, key, why);
	else
		snprintf(ps->err, ps->errlen, "%s: %s: %s", ps->file, key, why);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Only these characters make a number here: no "inf", "nan" or hex. */
static bool numeric_chars(const char *s)
{
	return *s && strspn(s, "0123456789.eE+-") == strlen(s);
}

static int parse_double(struct parser *ps, const char *key, const char *v, double min, double max, bool gt0,
			double *out)
{
	char *end;
	double d;

	errno = 0;
	d = numeric_chars(v) ? strtod(v, &end) : NAN;
	if (isnan(d) || *end || errno || !isfinite(d))
		return perr(ps, key, "'%.40s' is not a number", v);
	if (d < min || d > max || (gt0 && d <= min))
		return perr(ps, key, "%.40s out of range (%s%g..%g)", v, gt0 ? "above " : "", min, max);
	*out = d;
	return 0;
}

static int parse_uint(struct parser *ps, const char *key, const char *v, double min, double max, unsigned *out)
{
	unsigned long long u;
	char *end;

	errno = 0;
	if (!*v || strspn(v, "0123456789") != strlen(v))
		return perr(ps, key, "'%.40s' is not a whole number", v);
	u = strtoull(v, &end, 10);
	if (errno || u < (unsigned long long)min || u > (unsigned long long)max)
		return perr(ps, key, "%.40s out of range (%g..%g)", v, min, max);
	*out = (unsigned)u;
	return 0;
}

static bool name_chars(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return false;
	return true;
}

/* "50%:1200 90%:2500 100%:40000": cumulative percent, then ns. */
static int parse_dist(struct parser *ps, const char *key, char *v, struct sim_dist *d)
{
	char *save = NULL, *tok;

	d->n = 0;
	for (tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *colon = strchr(tok, ':');
		double pc, ns;

		if (d->n == SIM_DIST_MAX)
			return perr(ps, key, "more than %d points", SIM_DIST_MAX);
		if (!colon || colon == tok || colon[-1] != '%')
			return perr(ps, key, "'%.40s' is not PERCENT%%:NS", tok);
		colon[-1] = '\0';
		if (parse_double(ps, key, tok, 0, 100, false, &pc) || parse_double(ps, key, colon + 1, 0, 1e10, false, &ns))
			return -1;
		if (d->n && (pc <= d->p[d->n - 1] * 100 || ns < d->ns[d->n - 1]))
			return perr(ps, key, "point %g%%:%g does not follow %g%%:%g (percent must rise, ns not fall)",
				    pc, ns, d->p[d->n - 1] * 100, d->ns[d->n - 1]);
		d->p[d->n] = pc / 100;
		d->ns[d->n++] = ns;
	}
	if (d->n == 0)
		return perr(ps, key, "no points");
	if (d->p[d->n - 1] != 1)
		return perr(ps, key, "the last point is %g%%, not 100%%", d->p[d->n - 1] * 100);
	return 0;
}

/* The source comment: "measured: ...", "cited: ..." or "derived: ..."
 * (from which constants, by what rule), with some words. */
static bool has_source(const char *c)
{
	static const char *const kinds[] = { "measured:", "cited:", "derived:" };

	if (!c)
		return false;
	c = c + strspn(c, " \t");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i]);

		if (strncmp(c, kinds[i], n) == 0)
			return c[n + strspn(c + n, " \t")] != '\0';
	}
	return false;
}

static int mark_seen(struct parser *ps, const char *key)
{
	for (unsigned i = 0; i < ps->n_seen; i++)
		if (strcmp(ps->seen[i], key) == 0)
			return perr(ps, key, "given twice (first on line %u)", ps->seen_line[i]);
	if (ps->n_seen == KEYS_MAX)
		return perr(ps, key, "more than %d keys", KEYS_MAX);
	snprintf(ps->seen[ps->n_seen], KEY_MAX, "%s", key);
	ps->seen_line[ps->n_seen++] = ps->line;
	return 0;
}

static bool was_seen(const struct parser *ps, const char *key)
{
	for (unsigned i = 0; i < ps->n_seen; i++)
		if (strcmp(ps->seen[i], key) == 0)
			return true;
	return false;
}

static int set_fixed(struct parser *ps, struct sim_profile *p, const struct fixed_key *k, const char *v)
{
	char *at = (char *)p + k->off;

	switch (k->type) {
	case K_UINT:
		return parse_uint(ps, k->key, v, k->min, k->max, (unsigned *)(void *)at);
	case K_DOUBLE:
		return parse_double(ps, k->key, v, k->min, k->max, k->gt0, (double *)(void *)at);
	case K_TEXT:
		if (!*v || strlen(v) >= k->size || !name_chars(v, "._-"))
			return perr(ps, k->key, "'%.40s' is not a name (a-z, 0-9, '.', '_', '-'; under %zu characters)",
				    v, k->size);
		memcpy(at, v, strlen(v) + 1);
		return 0;
	}
	return perr(ps, k->key, "internal: unknown type");
}

/* The index of model MODEL in p->sched, added if new; -1 when full. */
static int sched_slot(struct sim_profile *p, const char *model)
{
	for (unsigned i = 0; i < p->n_sched; i++)
		if (strcmp(p->sched[i].model, model) == 0)
			return (int)i;
	if (p->n_sched == SIM_SCHED_MODELS_MAX)
		return -1;
	snprintf(p->sched[p->n_sched].model, sizeof(p->sched[0].model), "%s", model);
	p->sched[p->n_sched].latency_ns = p->sched[p->n_sched].wakeup_granularity_ns = NAN;
	return (int)p->n_sched++;
}

static int set_sched_param(struct parser *ps, struct sim_sched_params *s, enum sparam which, const char *key,
			   const char *v)
{
	double lo = sched_params[which].min, hi = sched_params[which].max;

	switch (which) {
	case S_HZ:
		return parse_uint(ps, key, v, lo, hi, &s->hz);
	case S_NR_LATENCY:
		return parse_uint(ps, key, v, lo, hi, &s->nr_latency);
	case S_SCALING_CAP:
		return parse_uint(ps, key, v, lo, hi, &s->scaling_cap);
	case S_LATENCY:
		return parse_double(ps, key, v, lo, hi, false, &s->latency_ns);
	case S_MIN_GRAN:
		return parse_double(ps, key, v, lo, hi, false, &s->min_granularity_ns);
	case S_WAKEUP_GRAN:
		return parse_double(ps, key, v, lo, hi, false, &s->wakeup_granularity_ns);
	case S_SCALING:
		for (unsigned i = 0; i < sizeof(scaling_names) / sizeof(scaling_names[0]); i++)
			if (strcmp(v, scaling_names[i]) == 0) {
				s->scaling = (enum sim_sched_scaling)i;
				return 0;
			}
		return perr(ps, key, "'%.40s' is not none, log or linear", v);
	case S_N:
		break;
	}
	return perr(ps, key, "internal: unknown parameter");
}

/* sched.MODEL.PARAM (MODEL may hold dots: PARAM is after the last). */
static int set_sched(struct parser *ps, struct sim_profile *p, const char *key, const char *v)
{
	const char *model = key + strlen("sched."), *dot = strrchr(key, '.');
	char name[sizeof(p->sched[0].model)];
	size_t len = (size_t)(dot - model);
	int slot;

	if (dot < model || len == 0 || len >= sizeof(name))
		return perr(ps, key, "unknown key");
	memcpy(name, model, len);
	name[len] = '\0';
	for (int w = 0; w < S_N; w++) {
		if (strcmp(dot + 1, sched_params[w].name) != 0)
			continue;
		if ((slot = sched_slot(p, name)) < 0)
			return perr(ps, key, "more than %d scheduler models", SIM_SCHED_MODELS_MAX);
		ps->sched_set[slot] |= 1u << w;
		return set_sched_param(ps, &p->sched[slot], (enum sparam)w, key, v);
	}
	return perr(ps, key, "unknown key");
}

/* The workload NAME (LEN characters) in p->workloads, added if new: its
 * index, or -1 after the message. */
static int workload_slot(struct parser *ps, struct sim_profile *p, const char *key, const char *name, size_t len)
{
	struct sim_workload_times *w;
	unsigned i;

	for (i = 0; i < p->n_workloads; i++)
		if (strncmp(p->workloads[i].name, name, len) == 0 && p->workloads[i].name[len] == '\0')
			return (int)i;
	if (i == SIM_WORKLOADS_MAX)
		return perr(ps, key, "more than %d workloads", SIM_WORKLOADS_MAX);
	w = &p->workloads[i];
	memcpy(w->name, name, len);
	w->name[len] = '\0';
	if (!name_chars(w->name, "_-"))
		return perr(ps, key, "'%s' is not a workload name (a-z, 0-9, '_', '-')", w->name);
	w->outside_ns = NAN;
	p->n_workloads++;
	return (int)i;
}

/* workload.NAME.hold, .gap (distributions), .outside_ns or .acq_per_op (optional). */
static int set_workload(struct parser *ps, struct sim_profile *p, const char *key, char *v)
{
	static const char *const fields[] = { ".hold", ".gap", ".outside_ns", ".acq_per_op" };
	const char *name = key + strlen("workload."), *dot = strrchr(key, '.');
	size_t len = (size_t)(dot - name), f = 0;
	struct sim_workload_times *w;
	int i;

	while (f < 4 && dot >= name && strcmp(dot, fields[f]) != 0)
		f++;
	if (dot < name || len == 0 || len >= sizeof(w->name) || f == 4)
		return perr(ps, key, "unknown key");
	if ((i = workload_slot(ps, p, key, name, len)) < 0)
		return -1;
	w = &p->workloads[i];
	ps->wl_set[i] |= 1u << f;
	if (f == 2)
		return parse_double(ps, key, v, 0, 1e10, false, &w->outside_ns);
	if (f == 3)
		return parse_uint(ps, key, v, 1, 1e9, &w->acq_per_op);
	return parse_dist(ps, key, v, f ? &w->gap : &w->hold);
}

static const char no_source[] = "no source: end the line with '# measured: how, when, on what', "
				"'# cited: publication' or '# derived: from what, how'";

/* topology.links = "A-B C-D ...": socket pairs joined by a link. */
static int set_links(struct parser *ps, struct sim_profile *p, const char *key, char *v)
{
	char *save = NULL;

	for (char *tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		unsigned a, b;
		int used = 0;

		if (sscanf(tok, "%u-%u%n", &a, &b, &used) != 2 || tok[used] != '\0')
			return perr(ps, key, "'%.20s' is not SOCKET-SOCKET", tok);
		if (a >= SIM_LINK_SOCKETS_MAX || b >= SIM_LINK_SOCKETS_MAX || a == b)
			return perr(ps, key, "'%.20s': two different sockets below %d", tok, SIM_LINK_SOCKETS_MAX);
		if ((p->socket_links[a] >> b) & 1)
			return perr(ps, key, "link %u-%u given twice", a, b);
		p->socket_links[a] |= UINT64_C(1) << b;
		p->socket_links[b] |= UINT64_C(1) << a;
	}
	p->has_links = true;
	return 0;
}

/* The link map fits the sockets, and every pair not linked is two hops
 * apart (a common neighbour): lat.remote_2hop is then their latency. */
static int check_links(struct parser *ps, const struct sim_profile *p)
{
	const char *key = "topology.links";

	if (!p->has_links)
		return 0;
	if (p->sockets > SIM_LINK_SOCKETS_MAX)
		return perr(ps, key, "a link map for at most %d sockets", SIM_LINK_SOCKETS_MAX);
	for (unsigned a = p->sockets; a < SIM_LINK_SOCKETS_MAX; a++)
		if (p->socket_links[a])
			return perr(ps, key, "socket %u, of %u sockets", a, p->sockets);
	for (unsigned a = 0; a < p->sockets; a++)
		for (unsigned b = a + 1; b < p->sockets; b++)
			if (!((p->socket_links[a] >> b) & 1) && !(p->socket_links[a] & p->socket_links[b]))
				return perr(ps, key, "sockets %u and %u are more than two hops apart", a, b);
	if (!was_seen(ps, "lat.remote_2hop"))
		return perr(ps, "lat.remote_2hop", "missing (topology.links needs it)");
	return 0;
}

static int parse_line(struct parser *ps, struct sim_profile *p, char *line)
{
	char *hash = strchr(line, '#'), *eq, *key, *v;
	const char *source = hash ? hash + 1 : NULL;

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (!*line)
		return 0;   /* a comment line (or one that is blank) */
	if (!(eq = strchr(line, '='))) {
		line[strcspn(line, " \t")] = '\0';
		return perr(ps, strlen(line) > 40 ? "(line)" : line, "not KEY = VALUE");
	}
	*eq = '\0';
	key = trim(line);
	v = trim(eq + 1);
	if (!*key || strlen(key) >= KEY_MAX || !name_chars(key, "._-"))
		return perr(ps, *key ? key : "(empty)", "not a key (a-z, 0-9, '.', '_', '-')");
	if (!*v)
		return perr(ps, key, "no value");
	for (size_t i = 0; i < N_FIXED; i++)
		if (strcmp(key, fixed_keys[i].key) == 0) {
			if (fixed_keys[i].sourced && !has_source(source))
				return perr(ps, key, "%s", no_source);
			return mark_seen(ps, key) || set_fixed(ps, p, &fixed_keys[i], v) ? -1 : 0;
		}
	if (strcmp(key, "topology.links") == 0) {
		if (!has_source(source))
			return perr(ps, key, "%s", no_source);
		return mark_seen(ps, key) || set_links(ps, p, key, v) ? -1 : 0;
	}
	if (strncmp(key, "sched.", 6) != 0 && strncmp(key, "workload.", 9) != 0)
		return perr(ps, key, "unknown key");
	if (!has_source(source))
		return perr(ps, key, "%s", no_source);
	if (mark_seen(ps, key))
		return -1;
	return key[0] == 's' ? set_sched(ps, p, key, v) : set_workload(ps, p, key, v);
}

/* After the last line: what must be there is, and the choices agree. */
static int check_complete(struct parser *ps, struct sim_profile *p)
{
	ps->line = 0;
	for (size_t i = 0; i < N_FIXED; i++) {
		const struct fixed_key *k = &fixed_keys[i];
		bool need = k->req == REQ_ALWAYS || (k->req == REQ_SMT && p->threads_per_core > 1) ||
			    (k->req == REQ_SOCKET && p->cores_per_socket > 1) ||
			    (k->req == REQ_REMOTE && p->sockets > 1);

		if (need && !was_seen(ps, k->key))
			return perr(ps, k->key, "missing (a required key)");
	}
	if (check_links(ps, p))
		return -1;
	for (unsigned m = 0; m < p->n_sched; m++)
		for (int w = 0; w < S_N; w++)
			if (sched_params[w].required && !(ps->sched_set[m] & (1u << w)))
				return perr(ps, "sched", "model %s: sched.%s.%s missing", p->sched[m].model,
					    p->sched[m].model, sched_params[w].name);
	for (unsigned i = 0; i < p->n_workloads; i++)
		if ((ps->wl_set[i] & 3) != 3)
			return perr(ps, "workload", "workload.%s.%s missing", p->workloads[i].name,
				    ps->wl_set[i] & 1 ? "gap" : "hold");
	return 0;
}

static void clear(struct sim_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->lat_smt = p->lat_socket = p->lat_remote = p->lat_remote_2hop = NAN;
}

static int parse_text(struct parser *ps, struct sim_profile *p, char *text)
{
	/* by hand: strtok() would skip empty lines and so miscount them */
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		ps->line++;
		if (parse_line(ps, p, line))
			return -1;
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int load_text(const char *file, char *text, struct sim_profile *p, char *err, size_t errlen)
{
	struct parser *ps = calloc(1, sizeof(*ps));
	char cpus_err[256];
	int rc;

	if (!ps) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	ps->file = file;
	ps->err = err;
	ps->errlen = errlen;
	clear(p);
	rc = parse_text(ps, p, text) || check_complete(ps, p) ? -1 : 0;
	if (rc == 0 && sim_profile_use_sched(p, p->sched_model, p->sockets * p->cores_per_socket * p->threads_per_core,
					     cpus_err, sizeof(cpus_err)) != 0)
		rc = perr(ps, "sched.model", "%s", cpus_err);
	free(ps);
	return rc;
}

int sim_profile_load(const char *path, struct sim_profile *p, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dirpath[PATH_MAX];
	struct sf_dir dir;
	size_t len;
	char *text;
	int rc;

	if (!*path || (slash && !slash[1])) {
		snprintf(err, errlen, "%s: not a file name", *path ? path : "(empty)");
		return -1;
	}
	snprintf(dirpath, sizeof(dirpath), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (sf_dir_open(&dir, dirpath, err, errlen))
		return -1;
	text = sf_read_all(&dir, slash ? slash + 1 : path, SIM_PROFILE_MAX_BYTES, &len, err, errlen);
	sf_dir_close(&dir);
	if (!text)
		return -1;
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s: holds a NUL byte: not a profile", path);
		rc = -1;
	} else {
		rc = load_text(path, text, p, err, errlen);
	}
	free(text);
	return rc;
}

unsigned sim_sched_factor(enum sim_sched_scaling s, unsigned cap, unsigned cpus)
{
	unsigned n = cpus < cap ? cpus : cap, log = 0;

	if (n == 0)
		n = 1;
	switch (s) {
	case SIM_SCALE_NONE:
		return 1;
	case SIM_SCALE_LINEAR:
		return n;
	case SIM_SCALE_LOG:
		while (n >>= 1)
			log++;
		return 1 + log;
	}
	return 1;
}

int sim_profile_use_sched(struct sim_profile *p, const char *model, unsigned cpus, char *err, size_t errlen)
{
	const struct sim_sched_params *s = NULL;
	unsigned f;

	for (unsigned i = 0; i < p->n_sched; i++)
		if (strcmp(p->sched[i].model, model) == 0)
			s = &p->sched[i];
	if (!s) {
		snprintf(err, errlen, "scheduler model '%s' is not in the profile (no sched.%s.* keys)", model, model);
		return -1;
	}
	/* The kernel multiplies the normalized tunables by one factor
	 * (update_sysctl()); sched_nr_latency is not scaled. */
	f = sim_sched_factor(s->scaling, s->scaling_cap, cpus);
	memmove(p->sched_model, s->model, sizeof(p->sched_model));
	p->hz = s->hz;
	p->sched_nr_latency = s->nr_latency;
	p->sched_latency_ns = s->latency_ns * f;
	p->sched_min_granularity_ns = s->min_granularity_ns * f;
	p->sched_wakeup_granularity_ns = s->wakeup_granularity_ns * f;
	return 0;
}

const struct sim_workload_times *sim_profile_workload(const struct sim_profile *p, const char *name)
{
	for (unsigned i = 0; i < p->n_workloads; i++)
		if (strcmp(p->workloads[i].name, name) == 0)
			return &p->workloads[i];
	return NULL;
}

bool sim_profile_has(double v)
{
	return !isnan(v);
}

double sim_dist_at(const struct sim_dist *d, double u)
{
	unsigned i = 0;

	if (d->n == 0)
		return 0;
	while (i < d->n - 1 && d->p[i] < u)
		i++;
	if (i == 0 || d->p[i] <= d->p[i - 1])
		return d->ns[i];
	return d->ns[i - 1] + (d->ns[i] - d->ns[i - 1]) * (u - d->p[i - 1]) / (d->p[i] - d->p[i - 1]);
}

/* ---- finding a shipped profile ---- */

/* The folder of the running binary, or "" when /proc does not say. */
static void exe_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	char *slash;

	out[n > 0 ? n : 0] = '\0';
	slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
	else
		out[0] = '\0';
}

/* Whether DIR holds FILE (a regular file, not a link). */
static bool dir_holds(const char *dir, const char *file)
{
	struct sf_dir d;
	char err[64];
	bool yes;

	if (sf_dir_open(&d, dir, err, sizeof(err)))
		return false;
	yes = sf_is_file(&d, file);
	sf_dir_close(&d);
	return yes;
}

int sim_profile_find(const char *name_or_path, struct sim_profile *p, char *err, size_t errlen)
{
	const char *env = getenv(SIM_PROFILE_DIR_ENV);
	size_t nlen = strlen(name_or_path);
	char exe[PATH_MAX], dirs[4][PATH_MAX], file[NAME_MAX + 1], path[PATH_MAX + NAME_MAX + 2];
	unsigned nd = 0;

	if (strchr(name_or_path, '/') || (nlen > 8 && strcmp(name_or_path + nlen - 8, ".profile") == 0))
		return sim_profile_load(name_or_path, p, err, errlen);
	if (!nlen || nlen > 64 || name_or_path[0] == '.' || !name_chars(name_or_path, "._-")) {
		snprintf(err, errlen, "sim profile '%.64s': not a profile name (a-z, 0-9, '.', '_', '-') or a path",
			 name_or_path);
		return -1;
	}
	snprintf(file, sizeof(file), "%s.profile", name_or_path);
	if (env && *env)
		snprintf(dirs[nd++], PATH_MAX, "%.3900s", env);
	exe_dir(exe, sizeof(exe));
	if (exe[0]) {
		/* bench/lockbench, build/sim/lbcalibrate, or a dist's bench/lockbench */
		snprintf(dirs[nd++], PATH_MAX, "%.4000s/../sim/profiles", exe);
		snprintf(dirs[nd++], PATH_MAX, "%.4000s/../../sim/profiles", exe);
	}
	snprintf(dirs[nd++], PATH_MAX, "sim/profiles");
	for (unsigned i = 0; i < nd; i++)
		if (dir_holds(dirs[i], file)) {
			snprintf(path, sizeof(path), "%.3900s/%s", dirs[i], file);
			return sim_profile_load(path, p, err, errlen);
		}
	snprintf(err, errlen, "sim profile '%s': no %s in $%s, sim/profiles/ beside or above the binary, or ./sim/profiles",
		 name_or_path, file, SIM_PROFILE_DIR_ENV);
	return -1;
}
