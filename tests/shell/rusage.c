/* rusage FILE COMMAND [ARG]...: runs COMMAND and writes its CPU seconds
 * and peak RSS (KiB) to FILE; exits with its exit status. The limits test
 * measures with it: a child forked from a Python script would count the
 * script's memory in its own peak RSS, a child forked from this does not. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3)
		return 125;
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !(f = fopen(argv[1], "w")))
		return 125;
	fprintf(f, "%.3f %ld\n",
		ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		ru.ru_maxrss);
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
