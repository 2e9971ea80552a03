/*
 * Test helper: writes an md 1.2 superblock (linux/raid/md_p.h, struct
 * mdp_superblock_1) for member 0 of a 2-disk RAID1 at OFFSET of PATH +
 * 4 KiB, where mdadm --metadata=1.2 puts it, checksummed as the kernel's
 * calc_sb_1_csum() does.  The host kernel has no md, so the signature
 * tests cannot run mdadm --create; the VM's md scenario does the real one.
 *
 *   sp-md-sb PATH OFFSET_BYTES    (OFFSET: where the member starts)
 */
#include <endian.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/raid/md_p.h>

#define MD_1_2_OFFSET_BYTES 4096U
#define MEMBERS 2U

static uint32_t sb_csum(const struct mdp_superblock_1 *sb)
{
	const unsigned char *p = (const unsigned char *)sb;
	size_t bytes = 256 + le32toh(sb->max_dev) * 2;
	uint64_t sum = 0;
	uint32_t word;
	uint16_t half;
	size_t i;

	for (i = 0; i + 4 <= bytes; i += 4) {
		memcpy(&word, p + i, 4);
		sum += le32toh(word);
	}
	if (bytes - i == 2) {
		memcpy(&half, p + i, 2);
		sum += le16toh(half);
	}
	return (uint32_t)((sum & 0xffffffffU) + (sum >> 32));
}

int main(int argc, char **argv)
{
	static const unsigned char set_uuid[16] = "stripeplan-test", dev_uuid[16] = "member-0-uuid..";
	unsigned char buf[MD_1_2_OFFSET_BYTES] = { 0 };
	struct mdp_superblock_1 *sb = (struct mdp_superblock_1 *)buf;
	uint64_t offset;
	char *end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s PATH OFFSET_BYTES\n", argv[0]);
		return 2;
	}
	offset = strtoull(argv[2], &end, 10);
	if (*end || offset % 512) {
		fprintf(stderr, "%s: '%s' is not a whole number of sectors in bytes\n", argv[0],
			argv[2]);
		return 2;
	}
	sb->magic = htole32(MD_SB_MAGIC);
	sb->major_version = htole32(1);
	memcpy(sb->set_uuid, set_uuid, sizeof(sb->set_uuid));
	snprintf(sb->set_name, sizeof(sb->set_name), "stripeplan:0");
	sb->level = htole32(1);
	sb->raid_disks = htole32(MEMBERS);
	sb->data_offset = htole64(2048); /* 1 MiB, in sectors */
	sb->data_size = htole64(65536);
	sb->size = htole64(65536);
	/* relative to the member's start: what libblkid compares */
	sb->super_offset = htole64(MD_1_2_OFFSET_BYTES / 512);
	memcpy(sb->device_uuid, dev_uuid, sizeof(sb->device_uuid));
	sb->events = htole64(1);
	sb->resync_offset = htole64(UINT64_MAX);
	sb->max_dev = htole32(MEMBERS);
	sb->dev_roles[0] = htole16(0);
	sb->dev_roles[1] = htole16(1);
	sb->sb_csum = htole32(sb_csum(sb));

	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (pwrite(fd, buf, sizeof(buf), (off_t)(offset + MD_1_2_OFFSET_BYTES)) !=
		    (ssize_t)sizeof(buf) ||
	    fsync(fd) < 0) {
		perror(argv[1]);
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}
