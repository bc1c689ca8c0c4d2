/* The module loop that check, unused, users and lint --modules share:
 * expand the arguments, then read each module and hand it to the caller.
 * Reading (decompression, libelf) runs on several threads; the caller's
 * function sees the modules one at a time, in input order, so output is
 * deterministic, and at most a small window of modules is in memory. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"
#include "scan.h"

#define MAX_JOBS 16
#define WINDOW_PER_JOB 32

struct slot {
	struct ks_module m;
	struct ks_diags d;
	int err;
	bool ready;
};

struct pool {
	const struct ks_inputs *in;
	struct slot *slots;
	size_t window;
	size_t next;		/* the next input a worker takes */
	size_t done;		/* inputs the caller has consumed */
	bool stop;
	pthread_mutex_t mu;
	pthread_cond_t ready, space;
};

static int expand(struct ks_scan *sc, struct ks_inputs *in, char *const *args, size_t nargs,
		  struct ks_diags *d)
{
	for (size_t i = 0; i < nargs; i++) {
		int e = ks_inputs_add(in, args[i], d);

		if (e == -ENOMEM)
			return e;
		sc->unusable |= e < 0;
	}
	return 0;
}

/* Hands one loaded module (or its failure) to fn; frees it. */
static int consume(struct ks_scan *sc, struct slot *s, ks_scan_fn fn, void *ctx,
		   struct ks_diags *d)
{
	int e = ks_diags_move(d, &s->d);

	if (e < 0 || s->err == -ENOMEM)
		e = -ENOMEM;
	else if (s->err < 0)
		sc->unusable = true;
	else {
		sc->modules++;
		sc->unusable |= s->m.bad_records;
		e = fn(ctx, &s->m);
	}
	if (!s->err)
		ks_module_free(&s->m);
	s->err = 0;
	s->ready = false;
	return e;
}

static void *worker(void *arg)
{
	struct pool *p = arg;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t i;
		struct slot *s;

		while (!p->stop && p->next < p->in->n && p->next >= p->done + p->window)
			pthread_cond_wait(&p->space, &p->mu);
		if (p->stop || p->next >= p->in->n)
			break;
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		s = &p->slots[i % p->window];
		s->err = ks_module_load(&s->m, p->in->paths[i], &s->d);
		pthread_mutex_lock(&p->mu);
		s->ready = true;
		pthread_cond_broadcast(&p->ready);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static size_t jobs_for(const struct ks_scan *sc, size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t j = sc->jobs ? sc->jobs : cpus > 0 ? (size_t)cpus : 1;

	j = j > MAX_JOBS ? MAX_JOBS : j;
	return j > n ? n : j;
}

/* The caller's side: modules in input order, as the workers finish them. */
static int drain(struct ks_scan *sc, struct pool *p, ks_scan_fn fn, void *ctx,
		 struct ks_diags *d)
{
	int e = 0;

	for (size_t i = 0; !e && i < p->in->n; i++) {
		struct slot *s = &p->slots[i % p->window];

		pthread_mutex_lock(&p->mu);
		while (!s->ready)
			pthread_cond_wait(&p->ready, &p->mu);
		pthread_mutex_unlock(&p->mu);
		e = consume(sc, s, fn, ctx, d);
		pthread_mutex_lock(&p->mu);
		p->done++;
		p->stop = e < 0;
		pthread_cond_broadcast(&p->space);
		pthread_mutex_unlock(&p->mu);
	}
	return e;
}

static int run_pool(struct ks_scan *sc, const struct ks_inputs *in, size_t jobs, ks_scan_fn fn,
		    void *ctx, struct ks_diags *d)
{
	struct pool p = { .in = in, .window = jobs * WINDOW_PER_JOB };
	pthread_t tid[MAX_JOBS];
	size_t started = 0;
	int e;

	p.slots = calloc(p.window, sizeof(*p.slots));
	if (!p.slots)
		return -ENOMEM;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.ready, NULL);
	pthread_cond_init(&p.space, NULL);
	while (started < jobs && pthread_create(&tid[started], NULL, worker, &p) == 0)
		started++;
	e = started ? 0 : -ENOMEM;
	if (!e && sc->prepare)
		e = sc->prepare(ctx);
	if (!e)
		e = drain(sc, &p, fn, ctx, d);
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	pthread_cond_broadcast(&p.space);
	pthread_mutex_unlock(&p.mu);
	for (size_t i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	/* modules read ahead of a stop */
	for (size_t i = 0; i < p.window; i++) {
		if (p.slots[i].ready && !p.slots[i].err)
			ks_module_free(&p.slots[i].m);
		ks_diags_free(&p.slots[i].d);
	}
	pthread_cond_destroy(&p.space);
	pthread_cond_destroy(&p.ready);
	pthread_mutex_destroy(&p.mu);
	free(p.slots);
	return e;
}

int ks_scan_modules(struct ks_scan *sc, char *const *args, size_t nargs, ks_scan_fn fn,
		    void *ctx, struct ks_diags *d)
{
	struct ks_inputs in = { 0 };
	int e = expand(sc, &in, args, nargs, d);

	if (!e && in.n)
		e = run_pool(sc, &in, jobs_for(sc, in.n), fn, ctx, d);
	else if (!e && sc->prepare)
		e = sc->prepare(ctx);
	ks_inputs_free(&in);
	return e;
}
