/* Test helper: holds a block device open with O_EXCL, as a partitioner or
 * a filesystem would, until it is killed.  Prints "held" once it has it. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause();
}
