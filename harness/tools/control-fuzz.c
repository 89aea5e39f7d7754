// SPDX-License-Identifier: GPL-2.0
/*
 * control-fuzz: write random and mutated commands to the markers control
 * file, one write() each, and check every answer.
 *
 *	control-fuzz COUNT SEED
 *
 * A write must either succeed (returning its length) or fail with one of
 * the documented errors (EINVAL, E2BIG, ENOENT). After a failed write the
 * control file's listing (hit counts aside) must be exactly what it was
 * before. Built static on the host, run in the guest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONTROL "/sys/kernel/debug/markers/control"
#define MAXBUF 9000

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (unsigned int)(rng >> 33) % n : 0;
}

static const char *const valid[] = {
	"enable name subsys_*", "disable name subsys_*",
	"enable name subsys_open to printk", "disable name subsys_open to printk",
	"enable name sdt_example:* provider sdt_example",
	"disable name sdt_example:*", "enable name module_* module vmlinux",
	"disable name module_*", "enable name subsys_[or]*; disable name subsys_r*",
	"enable name *:read to trace\ndisable name *:read",
	"disable name *",
};

static const char *const words[] = {
	"enable", "disable", "name", "module", "provider", "to", "trace",
	"printk", "subsys_*", "*", "sdt_example:*", "marker_example", "vmlinux",
	"[", "]", "[a-z]*", "?", "!", "#", "sdt_example", "module_live", "-",
	"", "enable name", "name name", "to to",
};

static const char seps[] = " \t;\n";
static const char globch[] = "abcdefghijklmnopqrstuvwxyz_:*?[]!-0123456789";

/*
 * The listing without its last column (hit counts), or -1 if it does not
 * fit in @size: a listing cut short would hide a change in its tail.
 */
static int snapshot(char *out, size_t size)
{
	static char buf[1 << 20];
	char *line, *save, *sp;
	int fd = open(CONTROL, O_RDONLY);
	size_t len = 0, o = 0, l;
	ssize_t n;

	if (fd < 0) {
		perror(CONTROL);
		return -1;
	}
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	if (n < 0 || len == sizeof(buf) - 1) {
		fprintf(stderr, "%s: %s\n", CONTROL,
			n < 0 ? strerror(errno) : "listing too long to compare");
		return -1;
	}
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sp = strrchr(line, ' ');
		if (sp)
			*sp = '\0';
		l = strlen(line);
		if (o + l + 2 >= size) {
			fprintf(stderr, "%s: listing too long to compare\n", CONTROL);
			return -1;
		}
		memcpy(out + o, line, l);
		o += l;
		out[o++] = '\n';
	}
	out[o] = '\0';
	return 0;
}

static size_t gen(char *b)
{
	size_t n = 0, len, i;
	const char *v;

	switch (rnd(8)) {
	case 0:		/* random bytes: NULs, invalid UTF-8, anything */
		len = rnd(300);
		for (i = 0; i < len; i++)
			b[n++] = (char)rnd(256);
		break;
	case 1:		/* words and separators */
		len = 1 + rnd(12);
		for (i = 0; i < len; i++) {
			v = words[rnd(sizeof(words) / sizeof(words[0]))];
			memcpy(b + n, v, strlen(v));
			n += strlen(v);
			b[n++] = seps[rnd(sizeof(seps) - 1)];
		}
		break;
	case 2:		/* a huge glob */
		memcpy(b, "enable name ", 12);
		n = 12;
		len = 100 + rnd(5000);
		for (i = 0; i < len && n < MAXBUF - 1; i++)
			b[n++] = globch[rnd(sizeof(globch) - 1)];
		break;
	case 3:		/* a long line, past the limit or near it */
		len = 4000 + rnd(200);
		for (i = 0; i < len; i++)
			b[n++] = i % 40 == 39 ? ';' : ' ';
		break;
	case 4:		/* too many commands */
		len = 50 + rnd(30);
		for (i = 0; i < len && n < 4000; i++) {
			memcpy(b + n, "enable name zz;", 15);
			n += 15;
		}
		break;
	default:	/* a valid command, mutated or not */
		v = valid[rnd(sizeof(valid) / sizeof(valid[0]))];
		n = strlen(v);
		memcpy(b, v, n);
		len = rnd(4);
		for (i = 0; i < len && n; i++) {
			size_t at = rnd(n);

			switch (rnd(3)) {
			case 0:
				b[at] = (char)rnd(256);
				break;
			case 1:
				memmove(b + at, b + at + 1, n - at - 1);
				n--;
				break;
			default:
				memmove(b + at + 1, b + at, n - at);
				b[at] = seps[rnd(sizeof(seps) - 1)];
				n++;
			}
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	static char buf[MAXBUF], before[1 << 20], after[1 << 20];
	unsigned long count, i, ok = 0, einval = 0, e2big = 0, enoent = 0;
	unsigned long other = 0, changed = 0;
	ssize_t ret;
	size_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: control-fuzz COUNT SEED\n");
		return 2;
	}
	count = strtoul(argv[1], NULL, 0);
	rng = strtoull(argv[2], NULL, 0);
	if (snapshot(before, sizeof(before)))
		return 1;
	for (i = 0; i < count; i++) {
		n = gen(buf);
		fd = open(CONTROL, O_WRONLY);
		if (fd < 0) {
			perror(CONTROL);
			return 1;
		}
		ret = write(fd, buf, n);
		if (ret < 0 && errno != EINVAL && errno != E2BIG && errno != ENOENT) {
			other++;
			fprintf(stderr, "write #%lu (%zu bytes): unexpected %s\n",
				i, n, strerror(errno));
		}
		if (ret >= 0 && (size_t)ret != n) {
			other++;
			fprintf(stderr, "write #%lu: %zd of %zu bytes\n", i, ret, n);
		}
		close(fd);
		if (ret < 0) {
			einval += errno == EINVAL;
			e2big += errno == E2BIG;
			enoent += errno == ENOENT;
		} else {
			ok++;
		}
		if (snapshot(after, sizeof(after)))
			return 1;
		if (ret < 0 && strcmp(before, after)) {
			changed++;
			fprintf(stderr, "write #%lu rejected (%s) but the listing changed\n",
				i, strerror(errno));
		}
		memcpy(before, after, strlen(after) + 1);
	}
	printf("control-fuzz: tried %lu accepted %lu rejected %lu (EINVAL %lu, E2BIG %lu, ENOENT %lu) unexpected %lu changed-on-reject %lu\n",
	       count, ok, einval + e2big + enoent, einval, e2big, enoent, other,
	       changed);
	return other || changed || !count;
}
