/*
 * text.h — two questions lockbench and lbcompare ask of text the same way:
 * a message made one line (what it quotes came from the user or from an
 * untrusted file), and whether a figure is written as results/README.md
 * says numbers are ("Numbers are decimal"): digits, a point and digits, no
 * exponent, hex, nan or inf.  --exec's metrics are taken only where
 * lbcompare would read them back (bench/exec/launcher/metric.c,
 * analysis/files/).
 */
#ifndef LOCKBENCH_TEXT_H
#define LOCKBENCH_TEXT_H

#include <stdbool.h>

/* MSG with every control byte made '?': one line whatever it quotes. */
static inline void text_one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}

/* S is digits[.digits] whole (no sign). */
static inline bool text_unsigned_decimal(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return false;
	if (*p == '.') {
		const char *f = ++p;

		while (*p >= '0' && *p <= '9')
			p++;
		if (p == f)
			return false;
	}
	return *p == '\0';
}

#endif
