/* Runs a fuzz target on the files named on the command line, without
 * libFuzzer: `make check` replays the kept crash inputs and the seeds with
 * the ordinary compiler (and sanitizers with SANITIZE=1). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (size == cap) {
			uint8_t *p = realloc(data, cap = cap ? cap * 2 : 65536);

			if (!p) {
				free(data);
				fclose(f);
				return -1;
			}
			data = p;
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		bad |= replay(argv[i]) < 0;
	printf("replayed %d input%s\n", argc - 1, argc == 2 ? "" : "s");
	return bad;
}
