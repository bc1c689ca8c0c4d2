/* runstat: the bench's stopwatch. Runs a command and writes its wall time,
 * CPU time (user+sys of it and every child it waited for) and peak RSS to
 * a file, finer than GNU time's hundredths of a second.
 *
 *   runstat FILE COMMAND [ARG]...   FILE gets "WALL-S CPU-S MAXRSS-KIB"
 *
 * Exit status: COMMAND's, or 125 if it could not be run or measured. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

static double cpu_seconds(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
	       (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: runstat FILE COMMAND [ARG]...\n");
		return 125;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("runstat");
		return 125;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 125;
	}
	fprintf(f, "%.6f %.6f %ld\n", seconds(&t1) - seconds(&t0), cpu_seconds(&ru), ru.ru_maxrss);
	if (fclose(f) != 0)
		return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
