/* programs.c — expands bench/exec/programs.def into the table the CLI
 * searches, and a program's template into its argv. */
#include <stdio.h>
#include <string.h>

#include "programs.h"

const struct exec_program exec_program_registry[] = {
#define PROGRAM(name, role, full, quick, metric, better, regex, argv) \
	{ name, role, full, quick, #metric, #better, regex, argv },
#include "../programs.def"
#undef PROGRAM
};

const size_t exec_program_registry_len = sizeof(exec_program_registry) / sizeof(exec_program_registry[0]);

const char *const program_role_names[] = { [PG_UNPLANNED] = "none", [PG_PATCH] = "patch" };

const struct exec_program *exec_program_find(const char *name)
{
	for (size_t i = 0; i < exec_program_registry_len; i++)
		if (strcmp(exec_program_registry[i].name, name) == 0)
			return &exec_program_registry[i];
	return NULL;
}

/* One word of the template, its placeholders replaced, appended at buf + *n. */
static int expand_word(const char *word, size_t len, const char *threads, const char *seconds, char *buf,
		       size_t cap, size_t *n)
{
	static const char th[] = "{threads}", sec[] = "{seconds}";

	while (len > 0) {
		const char *put = word;
		size_t take = 1, putlen = 1;

		if (len >= sizeof(th) - 1 && memcmp(word, th, sizeof(th) - 1) == 0)
			put = threads, take = sizeof(th) - 1, putlen = strlen(threads);
		else if (len >= sizeof(sec) - 1 && memcmp(word, sec, sizeof(sec) - 1) == 0)
			put = seconds, take = sizeof(sec) - 1, putlen = strlen(seconds);
		if (*n + putlen >= cap)
			return -1;
		memcpy(buf + *n, put, putlen);
		*n += putlen;
		word += take;
		len -= take;
	}
	buf[(*n)++] = '\0';
	return 0;
}

int exec_program_expand(const struct exec_program *p, unsigned int threads, double seconds,
			struct exec_program_argv *out, char *err, size_t errlen)
{
	char th[16], sec[32];
	const char *w = p->argv_template;
	size_t n = 0, argc = 0;

	snprintf(th, sizeof(th), "%u", threads);
	snprintf(sec, sizeof(sec), "%.9g", seconds);
	while (*w) {
		size_t len = strcspn(w, " "), start = n;

		if (argc == EXEC_PROGRAM_ARGS_MAX ||
		    expand_word(w, len, th, sec, out->buf, sizeof(out->buf), &n) != 0) {
			snprintf(err, errlen, "--program %s: its command is longer than %d words or %zu bytes",
				 p->name, EXEC_PROGRAM_ARGS_MAX, sizeof(out->buf));
			return -1;
		}
		out->argv[argc++] = out->buf + start;
		w += len;
		w += *w == ' ';
	}
	out->argv[argc] = NULL;
	snprintf(out->metric, sizeof(out->metric), "%s:%s=%s", p->metric, p->better, p->regex);
	return 0;
}
