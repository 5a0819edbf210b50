/*
 * result.c — result.h's one function: a workload's extra figure, added by
 * its figures() hook after the run.
 */
#include <stdarg.h>
#include <stdio.h>

#include "result.h"

void figure_add(struct figures *out, const char *key, const char *label, const char *fmt, ...)
{
	struct figure *f;
	va_list ap;

	if (out->n >= FIGURES_MAX)
		return;
	f = &out->f[out->n++];
	snprintf(f->key, sizeof(f->key), "%s", key);
	snprintf(f->label, sizeof(f->label), "%s", label);
	va_start(ap, fmt);
	vsnprintf(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
}
