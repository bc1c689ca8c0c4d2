/* The module loop that check, unused, users and lint --modules share:
 * expand the arguments, then read each module and hand it to the caller.
 * Reading (decompression, libelf) runs on several threads; the caller's
 * function sees the modules one at a time, in input order, so output is
 * deterministic, and at most a small window of modules is in memory. */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "array.h"
#include "input/inputs.h"
#include "input/scan.h"
#include "module/modfile.h"

#define MAX_JOBS 16
#define WINDOW_PER_JOB 64
#define BATCH 16

struct worker;

struct slot {
	char *path;
	struct worker *owner;	/* the thread that read it */
	struct ks_module m;
	struct ks_diags d;	/* the module's, after what the search found before it */
	int err;
	bool ready;
};

/* A reading thread, and what it read that the caller is done with: it
 * frees that itself, since memory freed by the thread whose malloc arena
 * it came from costs no lock on that arena. */
struct worker {
	struct pool *p;
	pthread_t tid;
	struct slot *spent;
	size_t nspent, cap;
};

/* Workers take the next path in turn (take), then read it unlocked; mu
 * guards the hand-over to the caller and back. */
struct pool {
	struct ks_inputs *in;
	const struct ks_scan *sc;
	void *ctx;		/* the caller's, for sc->locate_in_reader */
	struct slot *slots;
	size_t window;
	size_t next;		/* the index of the next input taken; once
				 * ended, the number of inputs */
	size_t done;		/* inputs the caller has consumed */
	struct ks_diags tail;	/* what the search found after the last module */
	bool ended, stop;
	pthread_mutex_t take, mu;
	pthread_cond_t ready, space;
};

/* Hands one loaded module (or its failure) to fn. */
static int consume(struct ks_scan *sc, struct slot *s, ks_scan_fn fn, void *ctx,
		   struct ks_diags *d)
{
	ks_diags_move(d, &s->d);
	if (s->err < 0) {
		sc->unusable = true;
		return 0;
	}
	sc->modules++;
	sc->unusable |= s->m.bad_records;
	if (sc->locate)
		sc->locate(ctx, &s->m);
	return fn(ctx, &s->m);
}

static void slot_free(struct slot *s)
{
	if (s->ready && !s->err)
		ks_module_free(&s->m);
	free(s->path);
	ks_diags_free(&s->d);
	memset(s, 0, sizeof(*s));
}

/* Gives a consumed slot's contents back to the thread that read them, and
 * frees the slot for the next input. Called with mu held. */
static void retire(struct slot *s)
{
	struct worker *w = s->owner;

	ks_array_room((void **)&w->spent, &w->cap, w->nspent + 1, sizeof(*w->spent));
	w->spent[w->nspent++] = *s;
	memset(s, 0, sizeof(*s));
}

/* Frees what the caller gave back; called without locks. */
static void free_spent(struct slot *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		slot_free(&v[i]);
	free(v);
}

/* Waits for free slots and takes up to BATCH inputs into them: the index
 * of the first and how many (0 at the end of the inputs or on a stop).
 * Called with take held, so next changes only here; taking and handing
 * over in batches keeps the threads off each other's locks. */
static size_t take_batch(struct worker *w, size_t *first)
{
	struct pool *p = w->p;
	struct ks_diags found = { 0 };
	struct slot *spent;
	size_t room, nspent, k = 0;
	char *path;
	bool more = true;

	pthread_mutex_lock(&p->mu);
	while (!p->stop && !p->ended && p->next >= p->done + p->window)
		pthread_cond_wait(&p->space, &p->mu);
	room = p->stop || p->ended ? 0 : p->done + p->window - p->next;
	*first = p->next;
	spent = w->spent;
	nspent = w->nspent;
	w->spent = NULL;
	w->nspent = w->cap = 0;
	pthread_mutex_unlock(&p->mu);
	free_spent(spent, nspent);
	/* the slots are free: the caller is done with them */
	while (k < room && k < BATCH && (more = ks_inputs_next(p->in, &path, &found))) {
		struct slot *s = &p->slots[(*first + k++) % p->window];

		s->path = path;
		s->owner = w;
		s->d = found;
		found = (struct ks_diags){ 0 };
	}
	pthread_mutex_lock(&p->mu);
	p->next += k;
	if (!more && !p->ended) {
		p->ended = true;
		ks_diags_move(&p->tail, &found);
		pthread_cond_broadcast(&p->ready);
	}
	pthread_mutex_unlock(&p->mu);
	ks_diags_free(&found);
	return k;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	struct ks_modfile_keep *keep = ks_modfile_keep_new();
	size_t first, k;

	for (;;) {
		pthread_mutex_lock(&p->take);
		k = take_batch(w, &first);
		pthread_mutex_unlock(&p->take);
		if (!k)
			break;
		for (size_t i = first; i < first + k; i++) {
			struct slot *s = &p->slots[i % p->window];

			s->err = ks_module_load(&s->m, s->path, keep, &s->d);
			if (!s->err && p->sc->locate_in_reader)
				p->sc->locate_in_reader(p->ctx, &s->m, &s->d);
		}
		pthread_mutex_lock(&p->mu);
		for (size_t i = first; i < first + k; i++)
			p->slots[i % p->window].ready = true;
		pthread_cond_broadcast(&p->ready);
		pthread_mutex_unlock(&p->mu);
	}
	ks_modfile_keep_free(keep);
	return NULL;
}

static size_t jobs_for(const struct ks_scan *sc)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t j = sc->jobs ? sc->jobs : cpus > 0 ? (size_t)cpus : 1;

	return j > MAX_JOBS ? MAX_JOBS : j;
}

/* How many inputs from i on are read and waiting in a row; 0 after the
 * last input. */
static size_t wait_for(struct pool *p, size_t i)
{
	size_t n = 0;

	pthread_mutex_lock(&p->mu);
	while (!p->slots[i % p->window].ready && !(p->ended && i >= p->next))
		pthread_cond_wait(&p->ready, &p->mu);
	while (n < p->window && p->slots[(i + n) % p->window].ready)
		n++;
	pthread_mutex_unlock(&p->mu);
	return n;
}

/* The progress line of long scans: "ksunset: 1200 of 4023 modules read
 * (850/s)" (no total while the search still goes on), redrawn at most ten times a
 * second from a quarter second on ($KSUNSET_PROGRESS_AFTER seconds, if set),
 * erased at the end. Only on a terminal: never in pipes, files or CI logs. */
struct progress {
	bool on, shown;
	bool same_tty;		/* stdout is a terminal too: erase before output */
	double start, last;
	double after;		/* seconds before the line first shows */
};

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void progress_init(struct progress *pr, const struct ks_scan *sc)
{
	const char *ci = getenv("CI"), *after = getenv("KSUNSET_PROGRESS_AFTER");
	char *end;

	*pr = (struct progress){ .start = seconds(), .after = 0.25 };
	if (after && *after) {
		double v = strtod(after, &end);

		if (!*end && v >= 0)
			pr->after = v;
	}
	pr->on = sc->progress && isatty(STDERR_FILENO) && !(ci && *ci);
	pr->same_tty = isatty(STDOUT_FILENO);
}

/* The progress line's own control bytes go to the descriptor itself: stderr
 * is a stream that writes control bytes as \xHH (report/escape.c). */
static void progress_erase(struct progress *pr)
{
	if (pr->shown)
		dprintf(STDERR_FILENO, "\r\033[K");
	pr->shown = false;
}

static void progress_show(struct progress *pr, size_t done, size_t taken, bool ended)
{
	double t = seconds();

	if (!pr->on || t - pr->start < pr->after || (pr->shown && t - pr->last < 0.1))
		return;
	pr->last = t;
	pr->shown = true;
	if (ended)
		dprintf(STDERR_FILENO, "\r\033[Kksunset: %zu of %zu", done, taken);
	else
		dprintf(STDERR_FILENO, "\r\033[Kksunset: %zu", done);
	dprintf(STDERR_FILENO, " modules read (%.0f/s)",
		t > pr->start ? (double)done / (t - pr->start) : 0.0);
}

/* The caller's side: modules in input order, as the workers finish them. */
static int drain(struct ks_scan *sc, struct pool *p, ks_scan_fn fn, void *ctx,
		 struct ks_diags *d)
{
	struct progress pr;
	size_t i = 0, n, k, taken;
	bool ended;
	int e = 0;

	progress_init(&pr, sc);
	while (!e && (n = wait_for(p, i)) > 0) {
		if (pr.same_tty)
			progress_erase(&pr);
		for (k = 0; !e && k < n; k++)
			e = consume(sc, &p->slots[(i + k) % p->window], fn, ctx, d);
		pthread_mutex_lock(&p->mu);
		for (size_t j = i; j < i + k; j++)
			retire(&p->slots[j % p->window]);
		i += k;
		p->done = i;
		p->stop = e < 0;
		taken = p->next;
		ended = p->ended;
		pthread_cond_broadcast(&p->space);
		pthread_mutex_unlock(&p->mu);
		progress_show(&pr, i, taken, ended);
	}
	progress_erase(&pr);
	if (!e)
		ks_diags_move(d, &p->tail);
	return e;
}

static void pool_free(struct pool *p, struct worker *w, size_t nw)
{
	/* modules read ahead of a stop, and those not given back yet */
	for (size_t i = 0; i < p->window; i++)
		slot_free(&p->slots[i]);
	for (size_t i = 0; i < nw; i++)
		free_spent(w[i].spent, w[i].nspent);
	ks_diags_free(&p->tail);
	pthread_cond_destroy(&p->space);
	pthread_cond_destroy(&p->ready);
	pthread_mutex_destroy(&p->mu);
	pthread_mutex_destroy(&p->take);
	free(p->slots);
}

static int run_pool(struct ks_scan *sc, struct ks_inputs *in, size_t jobs, ks_scan_fn fn,
		    void *ctx, struct ks_diags *d)
{
	struct pool p = { .in = in, .sc = sc, .ctx = ctx, .window = jobs * WINDOW_PER_JOB };
	struct worker w[MAX_JOBS] = { 0 };
	size_t started = 0;
	int e;

	p.slots = ks_xcalloc(p.window, sizeof(*p.slots));
#ifdef M_MMAP_THRESHOLD
	/* A fixed threshold: glibc would otherwise raise it to the largest
	 * buffer freed (libelf's copy of a big symbol table), after which
	 * such buffers come from the threads' heaps, which then keep
	 * growing with the number of modules read. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	pthread_mutex_init(&p.take, NULL);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.ready, NULL);
	pthread_cond_init(&p.space, NULL);
	for (; started < jobs; started++) {
		w[started].p = &p;
		if ((e = pthread_create(&w[started].tid, NULL, work, &w[started])) != 0)
			break;
	}
	if (!started)
		ks_diag_add(d, KS_ERROR, NULL, 0, 0, "cannot start a reading thread: %s",
			    strerror(e));
	e = started ? 0 : -e;
	if (!e && sc->prepare)
		e = sc->prepare(ctx);
	if (!e)
		e = drain(sc, &p, fn, ctx, d);
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	pthread_cond_broadcast(&p.space);
	pthread_mutex_unlock(&p.mu);
	for (size_t i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	pool_free(&p, w, started);
	return e;
}

int ks_scan_modules(struct ks_scan *sc, char *const *args, size_t nargs, ks_scan_fn fn,
		    void *ctx, struct ks_diags *d)
{
	struct ks_inputs in;
	int e;

	ks_inputs_init(&in, args, nargs);
	in.allow_empty = sc->allow_empty;
	e = run_pool(sc, &in, jobs_for(sc), fn, ctx, d);
	sc->unusable |= in.unusable;
	ks_inputs_free(&in);
	return e;
}
