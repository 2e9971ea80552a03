/*
 * Test helper: a SHA-256 of what a sparse image holds, printed in hex:
 * its size and, for every 4 KiB block that is not all zeros, the block's
 * offset and bytes.  Two states of an image have the same digest exactly
 * when they read the same, as with sha256sum of every byte, but holes are
 * skipped (SEEK_DATA) and zero blocks are not hashed: sha256sum of a
 * 1 GiB image took 3-9 s here, and the device tests take the state of an
 * image twice around every refusal.  Where the blocks are does not enter
 * (a hole and a block of zeros read the same), so the filesystem under
 * the image may allocate as it likes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ondisk/ondisk.h"

#define CHUNK_BYTES (1u << 20)
#define BLOCK_BYTES 4096u

static bool all_zero(const unsigned char *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

/* The blocks of one chunk read at offset at: each one not all zeros. */
static void hash_blocks(const unsigned char *buf, size_t len, off_t at, struct sp_sha256 *h)
{
	for (size_t i = 0; i < len; i += BLOCK_BYTES) {
		size_t n = len - i < BLOCK_BYTES ? len - i : BLOCK_BYTES;
		char place[32];
		int w;

		if (all_zero(buf + i, n))
			continue;
		w = snprintf(place, sizeof(place), "%jd\n", (intmax_t)(at + (off_t)i));
		sp_sha256_update(h, place, (size_t)w);
		sp_sha256_update(h, buf + i, n);
	}
}

/* [start, end), block-aligned: read in chunks of whole blocks */
static int hash_extent(int fd, off_t start, off_t end, struct sp_sha256 *h)
{
	static unsigned char buf[CHUNK_BYTES];

	while (start < end) {
		size_t want = end - start < CHUNK_BYTES ? (size_t)(end - start) : CHUNK_BYTES;
		ssize_t got = pread(fd, buf, want, start);

		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		hash_blocks(buf, (size_t)got, start, h);
		start += got;
	}
	return 0;
}

static int hash_image(int fd, struct sp_sha256 *h)
{
	struct stat st;
	char size[32];
	off_t at = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	sp_sha256_update(h, size, (size_t)snprintf(size, sizeof(size), "%jd\n",
						    (intmax_t)st.st_size));
	while (at < st.st_size) {
		off_t data = lseek(fd, at, SEEK_DATA), hole;
		int r;

		if (data < 0)
			return errno == ENXIO ? 0 : -errno; /* only holes from here */
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return -errno;
		/* whole blocks, each once, whatever the extents' edges */
		data -= data % BLOCK_BYTES;
		if (data < at)
			data = at;
		hole += (BLOCK_BYTES - hole % BLOCK_BYTES) % BLOCK_BYTES;
		if (hole > st.st_size)
			hole = st.st_size;
		r = hash_extent(fd, data, hole, h);
		if (r < 0)
			return r;
		at = hole;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sp_sha256 h;
	uint8_t out[32];
	int fd, r;

	if (argc != 2) {
		fprintf(stderr, "usage: %s IMAGE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	sp_sha256_init(&h);
	r = hash_image(fd, &h);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-r));
		return 1;
	}
	sp_sha256_final(&h, out);
	for (size_t i = 0; i < sizeof(out); i++)
		printf("%02x", out[i]);
	printf("\n");
	return 0;
}
