/*
 * text_hosts.c — lbcompare with runs from several machines: the list of
 * hosts, and each workload's variants on every host side by side.
 */
#include <stdio.h>
#include <string.h>

#include "text_int.h"

/* ---- hosts: runs from several machines, side by side ---- */

void print_hosts(struct text *t)
{
	fprintf(t->out, "Hosts (each table below is one host's; \"across hosts\" tables put them side by side):\n");
	for (unsigned int h = 0; h < t->c->nhosts; h++) {
		const struct result_host *id = t->c->hosts[h].id;

		if (!id) {
			fprintf(t->out, "  %-12s runs without meta.csv: machine not recorded\n", t->c->hosts[h].label);
			continue;
		}
		fprintf(t->out, "  %-12s %s; %u package%s, %u cores, %u PUs usable, %u NUMA node%s; kernel %s\n", t->c->hosts[h].label,
		       id->cpu, id->packages, id->packages == 1 ? "" : "s", id->cores, id->pus, id->numa_nodes,
		       id->numa_nodes == 1 ? "" : "s", id->kernel);
	}
	fprintf(t->out, "\n");
}

/* ---- across hosts: one table, a column per host ---- */

/* The host's group of `workload` with the most threads, or NULL. */
static const struct group *host_group(struct text *t, unsigned int host, const char *workload)
{
	const struct group *best = NULL;

	for (unsigned int i = 0; i < t->c->ngroups; i++)
		if (t->c->groups[i].host == host && strcmp(t->c->groups[i].workload, workload) == 0 &&
		    (!best || t->c->groups[i].threads > best->threads))
			best = &t->c->groups[i];
	return best;
}

/* The workload's locks over every host's group, in the order first met. */
static unsigned int across_locks(struct text *t, const struct group *const *per_host, const char **locks, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int h = 0; h < t->c->nhosts; h++)
		for (unsigned int i = 0; per_host[h] && i < per_host[h]->nv; i++) {
			unsigned int k = 0;

			while (k < n && strcmp(locks[k], per_host[h]->v[i].lock) != 0)
				k++;
			if (k == n && n < max)
				locks[n++] = per_host[h]->v[i].lock;
		}
	return n;
}

/* One host's cell: median throughput, ratio to that host's baseline and the
 * verdict against it; blank when the host did not run the lock. */
static int print_across_cell(struct text *t, const struct group *g, const char *lock, double scale)
{
	const struct variant *v = g ? find_variant(g, lock) : NULL;
	struct stat3 s, base;
	struct verdict vd;

	if (!v) {
		fprintf(t->out, "  %12s %7s %-13s", "", "", "");
		return 0;
	}
	if (figure(v, "ops_per_s", scale, &s, t->err, t->errlen) || figure(&g->v[0], "ops_per_s", scale, &base, t->err, t->errlen))
		return -1;
	judge(&s, &base, &vd);
	fprintf(t->out, "  %12.0f", s.median);
	print_verdict_ratio(t, &vd, &s, &base);
	fprintf(t->out, " %-13s", v == &g->v[0] ? "(baseline)" : verdict_word(&vd, SENSE_RATE));
	return 0;
}

/* Each workload's variants on every host that ran it, at that host's most
 * threads: throughput, and the ratio and verdict against that host's own
 * baseline, so hosts are compared by what the variants do on each. */
int print_across_hosts(struct text *t)
{
	for (unsigned int i = 0; i < t->c->ngroups; i++) {
		const struct group *per_host[MAX_HOSTS];
		const char *locks[MAX_VARIANTS];
		unsigned int nlocks, present = 0;
		const struct rate *rate = &t->c->groups[i].rate;
		bool first = true;

		for (unsigned int j = 0; j < i; j++)
			first &= strcmp(t->c->groups[j].workload, t->c->groups[i].workload) != 0;
		for (unsigned int h = 0; h < t->c->nhosts; h++)
			present += (per_host[h] = host_group(t, h, t->c->groups[i].workload)) != NULL;
		if (!first || present < 2)
			continue;
		fprintf(t->out, "== across hosts: workload %s, each host at its most threads; %s, ratio and verdict against that "
		       "host's baseline ==\n", t->c->groups[i].workload, rate->words);
		fprintf(t->out, "%-18s", "");
		for (unsigned int h = 0; h < t->c->nhosts; h++) {
			char head[64];

			if (per_host[h])
				snprintf(head, sizeof(head), "%s, %u threads", t->c->hosts[h].label, per_host[h]->threads);
			else
				snprintf(head, sizeof(head), "%s: not run", t->c->hosts[h].label);
			fprintf(t->out, "  %-34.34s", head);
		}
		fprintf(t->out, "\n");
		nlocks = across_locks(t, per_host, locks, MAX_VARIANTS);
		for (unsigned int k = 0; k < nlocks; k++) {
			fprintf(t->out, "%-18s", locks[k]);
			for (unsigned int h = 0; h < t->c->nhosts; h++)
				if (print_across_cell(t, per_host[h], locks[k], rate->scale))
					return -1;
			fprintf(t->out, "\n");
		}
		fprintf(t->out, "\n");
	}
	return 0;
}
