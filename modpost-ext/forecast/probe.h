/* The forecast's parts (forecast.h): a unit's probe source (source.c),
 * its compilation by the target's Kbuild and the cache (kbuild.c), and
 * the judgement of its results (judge.c). */
#ifndef KS_PROBE_H
#define KS_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "forecast/forecast.h"

/* One shape or include of a unit, as its probe asks about it. */
#define KS_ITEM_UNWRITABLE (-2)

struct ks_item {
	int question;		/* its question (#pragma ksunset probe "QUESTION+1 ...",
				   item 0 being the unit's); -1: none;
				   KS_ITEM_UNWRITABLE: its record holds bytes
				   no probe can write, so none */
	unsigned line;		/* its use rebuilt, a line of the probe (an include:
				   the #include); 0: none */
	unsigned first;		/* an include: the first line of its block */
	int alias;		/* the aggregate's typedef alias; -1: none */
	unsigned nargs;		/* a call's arguments */
	char *alt;		/* an include: the same header elsewhere in the target */
};

struct ks_forecast_unit {
	size_t module;			/* its module, an index of the forecast's */
	struct ks_units one;		/* the unit (one of them) */
	struct ks_item *items;		/* its shapes', then its includes' */
	size_t nitems;
	char **questions;		/* "name vmap", "member __ks_a1 i_mtime", ... */
	size_t nquestions;
	char **aliases;			/* "struct inode": __ks_a<index> */
	unsigned *alias_lines;
	size_t naliases;
	int *guard_questions;		/* per guard of the unit: its question */
	unsigned *guard_lines;		/* and the line that asks it; 0: none */
	bool *guard_failed;		/* and whether that line did not compile */
	bool *dropped;			/* per include: left out of the probe, since
					   it does not compile outside the module */
	char *dropped_why;		/* the first one's first error */
	unsigned runs;			/* the probe's sources compiled so far */
	bool again;			/* includes were left out: probe it again */
	struct ks_buf source;		/* the probe source */
	uint64_t hash;			/* of the source: the cache's key */
	/* results */
	struct ks_record_fact *facts;	/* by question; status NONE if unanswered */
	struct ks_record_error *errors;
	size_t nerrors;
	char **import_ns;
	size_t nimport_ns;
	bool done;			/* the compilation got to its end */
	char *why;			/* no results: why */
};

/* Writes u's probe source (h: where the target has a gone header under
 * another folder), anew if it was written before (leaving out the
 * includes u->dropped names). */
void ks_probe_write(struct ks_forecast_unit *u, struct ks_headers *h);
/* Reads a probe's results (the plugin's SOURCE.probe file). 0 or -EINVAL
 * (*why set). */
int ks_probe_read(struct ks_forecast_unit *u, const char *text, size_t len,
		  const char **why) KS_MUST_CHECK;
/* Judges u's results: its breaks go to v. */
void ks_probe_judge(const struct ks_forecast_unit *u, const struct ks_symvers *sv,
		    const struct ks_symvers *run, struct ks_headers *h, struct ks_verdict *v);
/* Frees what the probe source and its results made of u (not the unit,
 * nor which includes are left out). */
void ks_probe_reset(struct ks_forecast_unit *u);
void ks_probe_free(struct ks_forecast_unit *u);

/* "struct inode.i_mtime" -> "struct inode" and "i_mtime". */
void ks_member_split(const char *name, char **agg, const char **member);

#endif
