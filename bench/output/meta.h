/* meta.h — meta.csv, the run's machine and placement (meta.c). */
#ifndef LOCKBENCH_META_H
#define LOCKBENCH_META_H

#include <stdio.h>

struct bench_result;

/* meta.csv: key,value lines (results/README.md). */
void machine_write_meta(const struct bench_result *res, FILE *f);

#endif
